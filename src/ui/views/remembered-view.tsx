/**
 * Approvals: everything the gate remembers on the person's behalf, so nothing keeps running
 * unasked without them being able to see it. Each remembered approval ("Allow for this session",
 * "Always allow") and each rule is listed with who it covers (you, the app, a web site by origin,
 * an MCP App), the server, the tool and its reach, with Revoke. Revoking takes effect for the next
 * call. Re-read whenever the policy changes (also from another tab or the extension's worker).
 */

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import {
  coveredCallers,
  grantEndWords,
  grantReachWords,
  type PanelController,
  type RememberedItem,
  serverNames,
} from '../../session/index.js';
import { visibleToolName } from '../components/tool-name.js';

function reach(item: RememberedItem): string {
  if (item.type === 'grant') {
    const how = {
      session: 'allowed for this session',
      hour: 'allowed for an hour',
      always: 'always allowed',
    }[item.scope];
    return item.reach === 'tool' ? how : `${how}: ${grantReachWords(item)}`;
  }
  const verdict = { allow: 'rule: allow', ask: 'rule: always ask', deny: 'rule: deny' }[item.verdict];
  const conditions = item.conditions
    ? ` when ${item.conditions} condition${item.conditions > 1 ? 's' : ''} hold`
    : '';
  return `${verdict}${conditions}${item.note ? ` (${item.note})` : ''}`;
}

const TABLE_CSS =
  '.tg-remembered{border-collapse:collapse;width:100%}.tg-remembered th,.tg-remembered td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--tg-border);vertical-align:top}';

const action = (item: RememberedItem) => (item.type === 'grant' ? 'Revoke' : 'Delete rule');

const named = (value: string, all: string, name: (value: string) => string = (v) => v) =>
  value === '*' ? all : name(value);

export function RememberedView({ controller }: { controller: PanelController }) {
  const items = useSignal<RememberedItem[] | undefined>(undefined);
  const problem = useSignal('');
  const status = useSignal('');
  const version = controller.rememberedVersion.value;
  const names = serverNames(controller.servers.value);

  useEffect(() => {
    let live = true;
    controller.listRemembered().then(
      (list) => {
        if (live) {
          items.value = list;
          problem.value = '';
        }
      },
      (error: unknown) => {
        if (live) problem.value = `The remembered approvals could not be read: ${(error as Error).message}`;
      },
    );
    return () => {
      live = false;
    };
  }, [version, controller]);

  const revoke = async (item: RememberedItem) => {
    problem.value = '';
    try {
      await controller.forgetRemembered(item);
      items.value = items.value?.filter((other) => other.id !== item.id);
      status.value = `Revoked: ${named(item.toolName, 'every tool', visibleToolName)} on ${named(item.serverId, 'every server', names)} for ${coveredCallers(item)}.`;
    } catch (error) {
      problem.value = `Could not revoke: ${(error as Error).message}`;
    }
  };

  const list = items.value;
  return (
    <section aria-labelledby="tg-remembered-title">
      <style>{TABLE_CSS}</style>
      <h2 id="tg-remembered-title">Remembered approvals and rules</h2>
      <p class="tg-help">
        Calls these cover run without asking. Each covers only the caller named; revoking takes effect for the
        next call.
      </p>
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      <p role="status" class="tg-muted">
        {status.value}
      </p>
      {list === undefined && !problem.value && <p class="tg-muted">Loading…</p>}
      {list?.length === 0 && (
        <p class="tg-empty">
          Nothing is remembered: every call is decided when it is made. “Always allow” in an approval, or a
          rule, shows up here.
        </p>
      )}
      {list && list.length > 0 && (
        <table class="tg-remembered">
          <thead>
            <tr>
              <th scope="col">For</th>
              <th scope="col">Server</th>
              <th scope="col">Tool</th>
              <th scope="col">What</th>
              <th scope="col">Ends</th>
              <th scope="col">
                <span class="tg-visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((item) => {
              const who = coveredCallers(item);
              const tool = named(item.toolName, 'every tool', visibleToolName);
              const server = named(item.serverId, 'every server', names);
              return (
                <tr key={`${item.type}:${item.id}`} data-type={item.type}>
                  <td data-label="For" class="tg-wrap">
                    {who}
                  </td>
                  <td data-label="Server" class="tg-wrap">
                    {server}
                  </td>
                  <td data-label="Tool" class="tg-wrap">
                    <code>{tool}</code>
                  </td>
                  <td data-label="What">{reach(item)}</td>
                  <td data-label="Ends">
                    {item.type === 'grant' ? grantEndWords(item) : 'until you delete it'}
                  </td>
                  <td data-label="Action">
                    <button
                      type="button"
                      // The visible word first, so speech commands that use it still match.
                      aria-label={`${action(item)}: ${reach(item)}, ${tool} on ${server}, for ${who}`}
                      onClick={() => void revoke(item)}
                    >
                      {action(item)}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
