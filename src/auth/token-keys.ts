/**
 * Where a server's tokens live in an AuthStore: one key per server for a person's sign-in, and one
 * per server and client id for the host app's own (client credentials), so a host's token is never
 * mistaken for a person's, nor the other way round. The sessions write under these keys, and
 * forgetSignIn (connect-auth.ts) deletes them without a session.
 */

import { canonicalResourceUri } from './urls.js';

export const personTokensKey = (serverUrl: string | URL): string =>
  `tokens ${canonicalResourceUri(serverUrl)}`;

export const appTokensKey = (clientId: string, serverUrl: string | URL): string =>
  `client-credentials ${clientId} ${canonicalResourceUri(serverUrl)}`;
