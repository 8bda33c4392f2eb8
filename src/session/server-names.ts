/**
 * How the panel names a server: by the label the person gave or the server's own name, never by its
 * id alone. Two servers with the same label (two deployments of one server, say) are told apart by
 * their ids, which are unique and default to the exact address (client/server-id.ts).
 */

import type { ServerState } from './controller.js';

export type ServerNames = (serverId: string) => string;

/** Names for every server in the list; an id not in the list (a removed server) is shown as it is. */
export function serverNames(servers: readonly Pick<ServerState, 'id' | 'label'>[]): ServerNames {
  const uses = new Map<string, number>();
  for (const server of servers) uses.set(server.label, (uses.get(server.label) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const server of servers)
    names.set(
      server.id,
      (uses.get(server.label) ?? 0) > 1 && server.label !== server.id
        ? `${server.label} (${server.id})`
        : server.label,
    );
  return (serverId) => names.get(serverId) ?? serverId;
}

/** Where the server lives, for the line under its name: its address, or its id. */
export function serverAddress(server: Pick<ServerState, 'id' | 'config'>): string {
  return server.config.url ?? server.config.frameUrl ?? server.config.address ?? server.id;
}

/**
 * The server ids a search text names: servers whose label or displayed name is the text (any case),
 * else the text as an id. The audit log stores ids; people type what the list shows.
 */
export function serverIdsNamed(
  text: string,
  servers: readonly Pick<ServerState, 'id' | 'label'>[],
): string[] {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return [];
  const names = serverNames(servers);
  const byName = servers
    .filter((server) => names(server.id).toLowerCase() === wanted || server.label.toLowerCase() === wanted)
    .map((server) => server.id);
  const exactDisplay = servers.filter((server) => names(server.id).toLowerCase() === wanted);
  // "Demo (a.example/mcp)" names one server even when "Demo" alone names two.
  if (exactDisplay.length === 1 && byName.length > 1) return [exactDisplay[0]!.id];
  return byName.length > 0 ? byName : [text.trim()];
}
