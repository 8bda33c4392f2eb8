/**
 * The demo page's sentence about its servers, from the panel's live state: how many are connected
 * and which, which wait for the person to sign in, which are still connecting or could not connect.
 */
import type { Controller, ServerState } from '../widget.js';

type PendingSignIn = NonNullable<Controller['signIns']>['value'][number];

const list = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export function describeConnected(
  servers: readonly ServerState[],
  signIns: readonly PendingSignIn[],
): string {
  const waiting = new Set(signIns.map((item) => item.serverId));
  const connected = servers.filter((server) => server.state === 'connected');
  const signIn = servers.filter(
    (server) => waiting.has(server.id) || (server.state === 'failed' && server.errorCause === 'declined'),
  );
  const connecting = servers.filter((server) => server.state === 'connecting' && !waiting.has(server.id));
  const failed = servers.filter(
    (server) => (server.state === 'failed' && server.errorCause !== 'declined') || server.state === 'closed',
  );
  const label = (server: ServerState) => server.label;
  const parts = [
    connected.length === 0
      ? `No server is connected yet (${servers.length} listed).`
      : `${connected.length} of ${servers.length} ${servers.length === 1 ? 'server is' : 'servers are'} connected: ${list(connected.map(label))}.`,
  ];
  if (signIn.length)
    parts.push(
      `${list(signIn.map(label))} ${signIn.length === 1 ? 'needs' : 'need'} you to sign in (see Servers).`,
    );
  if (connecting.length) parts.push(`Still connecting: ${list(connecting.map(label))}.`);
  if (failed.length) parts.push(`Not connected: ${list(failed.map(label))} (see Servers).`);
  return parts.join(' ');
}
