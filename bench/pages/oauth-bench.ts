/**
 * The sign-in timing page (bench/oauth.mjs): connect({ auth }) to a protected MCP server whose
 * authorization server is oidc-provider on this machine, with marks at each step of the sign-in,
 * taken under the OAuth layer (its fetch) and around the popup (its authorize):
 * - 401: the server's first answer asking for a token;
 * - authorize: discovery and registration are done, the popup opens;
 * - callback: the person is back (login and consent are the person's time, not Toolgate's);
 * - token: the first request carrying the new token leaves.
 * At /callback.html the same bundle runs completeSignIn().
 */
import { completeSignIn } from '../../src/auth/callback-page.js';
import { popupAuthorizer } from '../../src/auth/popup.js';
import { connect } from '../../src/index.js';

export interface SignInMarks {
  unauthorized: number;
  authorize: number;
  callback: number;
  token: number;
}

declare global {
  interface Window {
    signInOnce(serverUrl: string): Promise<SignInMarks>;
  }
}

async function signInOnce(serverUrl: string): Promise<SignInMarks> {
  const marks: Partial<SignInMarks> = {};
  const timed: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (headers.has('authorization')) marks.token ??= performance.now();
    const response = await fetch(input, init);
    if (response.status === 401) marks.unauthorized ??= performance.now();
    return response;
  };
  const popup = popupAuthorizer();
  const client = await connect({
    url: serverUrl,
    fetch: timed,
    auth: {
      client: { clientName: 'Toolgate bench', redirectUri: `${location.origin}/callback.html` },
      authorize: async (request) => {
        marks.authorize = performance.now();
        const landed = await popup(request);
        marks.callback = performance.now();
        return landed;
      },
    },
  });
  await client.close();
  const { unauthorized, authorize, callback, token } = marks;
  if (unauthorized === undefined || authorize === undefined || callback === undefined || token === undefined)
    throw new Error(`a step was not seen: ${JSON.stringify(marks)}`);
  return { unauthorized, authorize, callback, token };
}

if (location.pathname === '/callback.html') completeSignIn();
else window.signInOnce = signInOnce;
