/**
 * Tools a server lists that Toolgate cannot call, because their definitions are invalid (an
 * inputSchema that is null, a string, an array, a number...): named in the Tools view with the
 * reason, so a tool never disappears without a word. A hostile catalog can list thousands: a few
 * are shown, then a count.
 */

import type { ServerState } from '../../session/index.js';

/** How many excluded tools are listed before "and N more". */
const SHOWN = 20;

export function ExcludedTools({
  servers,
  names,
  query,
}: {
  servers: readonly ServerState[];
  names: (id: string) => string;
  query: string;
}) {
  const needle = query.trim().toLowerCase();
  const all = servers.flatMap((server) =>
    (server.excluded ?? [])
      .filter((tool) => !needle || tool.name.toLowerCase().includes(needle))
      .map((tool) => ({ ...tool, serverId: server.id })),
  );
  if (all.length === 0) return null;
  const rest = all.length - SHOWN;
  return (
    <section class="tg-excluded-tools" aria-labelledby="tg-excluded-heading">
      <h3 id="tg-excluded-heading">Listed, but cannot be called</h3>
      <ul class="tg-warning" aria-labelledby="tg-excluded-heading">
        {all.slice(0, SHOWN).map((tool, index) => (
          <li key={`${tool.serverId}-${index}`}>
            <code>{tool.name}</code> on {names(tool.serverId)}: not callable, {tool.reason}.
          </li>
        ))}
        {rest > 0 && <li>and {rest.toLocaleString('en')} more (see Servers)</li>}
      </ul>
    </section>
  );
}
