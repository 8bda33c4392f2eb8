/**
 * A web site asks to use the person's tools: which servers, which tools. Nothing is ticked at
 * first; the person picks, or refuses (Escape refuses). The origin is the one Chrome reported for
 * the page, shown as text; the page's title is its own claim and is labelled as such.
 *
 * The text says what the gate does with a site's calls (src/gate/policy.ts): each one is asked
 * unless the person remembers an approval or makes a rule for this exact site, and nothing given to
 * the person's own calls or to another site covers it.
 */

import { useSignal } from '@preact/signals';
import { escapeHidden, ModalDialog, ToolName } from '../../src/ui/index.js';
import type { RemoteController } from '../remote/remote-controller.js';
import type { ConsentRequest } from '../site-access.js';
import { InsecureOriginNote } from './insecure-origin-note.js';

const keyOf = (serverId: string, toolName: string) => JSON.stringify([serverId, toolName]);

export function ConsentDialog({ consent, remote }: { consent: ConsentRequest; remote: RemoteController }) {
  const chosen = useSignal<ReadonlySet<string>>(new Set());
  const problem = useSignal('');
  // Another site's tab tools ("This page" of another origin) are not the person's to hand over.
  const servers = remote.servers.value.filter(
    (server) =>
      server.state === 'connected' &&
      (!server.id.startsWith('webmcp:') || server.id === `webmcp:${consent.origin}`),
  );
  const titleId = `tg-consent-title-${consent.id}`;

  const toggle = (keys: string[], on: boolean) => {
    const next = new Set(chosen.value);
    for (const key of keys) on ? next.add(key) : next.delete(key);
    chosen.value = next;
  };
  const answer = async (allow: boolean) => {
    problem.value = '';
    try {
      if (!allow) await remote.answerConsent(consent.id, { allow: false });
      else
        await remote.answerConsent(consent.id, {
          allow: true,
          tools: [...chosen.value].map((key) => {
            const [serverId, toolName] = JSON.parse(key) as [string, string];
            return { serverId, toolName };
          }),
        });
    } catch (error) {
      problem.value = (error as Error).message;
    }
  };

  return (
    <ModalDialog titleId={titleId} onEscape={() => void answer(false)}>
      <h2 id={titleId}>
        Let <code>{consent.origin}</code> use your tools?
      </h2>
      {consent.pageTitle && <p class="tg-muted">The page calls itself “{consent.pageTitle}”.</p>}
      <InsecureOriginNote origin={consent.origin} />
      <p>
        The site will see the tools you tick and may ask to call them. Each call it makes waits for your
        approval, unless you remember an approval for this site (“Allow for this session” or “Always allow
        this tool” when you approve one) or make a rule for it. Nothing you approve for yourself or for
        another site covers this one. Every call is written to the audit log; the site never sees other sites’
        calls or the log.
      </p>
      {servers.length === 0 && (
        <p class="tg-warning">No server is connected, so there is nothing to share yet.</p>
      )}
      {servers.map((server) => {
        const keys = server.tools
          .filter((tool) => !server.disabled.has(tool.name))
          .map((tool) => keyOf(server.id, tool.name));
        const all = keys.length > 0 && keys.every((key) => chosen.value.has(key));
        return (
          <fieldset key={server.id} class="tg-fieldset">
            <legend>
              <label>
                <input
                  type="checkbox"
                  checked={all}
                  onChange={(event) => toggle(keys, (event.currentTarget as HTMLInputElement).checked)}
                />{' '}
                All tools of {server.label}
              </label>
            </legend>
            {server.tools
              .filter((tool) => !server.disabled.has(tool.name))
              .map((tool) => {
                const key = keyOf(server.id, tool.name);
                return (
                  <label key={key} class="tg-row">
                    <input
                      type="checkbox"
                      checked={chosen.value.has(key)}
                      onChange={(event) => toggle([key], (event.currentTarget as HTMLInputElement).checked)}
                    />{' '}
                    <ToolName name={tool.name} />
                    {tool.title ? ` (${escapeHidden(tool.title)})` : ''}
                  </label>
                );
              })}
          </fieldset>
        );
      })}
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      <div class="tg-actions">
        <button type="button" class="tg-deny" onClick={() => void answer(false)}>
          Refuse
        </button>
        <button
          type="button"
          class="tg-allow"
          disabled={chosen.value.size === 0}
          onClick={() => void answer(true)}
        >
          Allow {chosen.value.size} {chosen.value.size === 1 ? 'tool' : 'tools'}
        </button>
      </div>
    </ModalDialog>
  );
}
