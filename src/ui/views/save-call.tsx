/**
 * "Save call" under a tool's form: the form's arguments kept with a name (session/saved-calls.ts),
 * redacted as the audit log keeps them, listed in Activity per server to run again.
 */

import { useSignal } from '@preact/signals';
import type { JsonObject } from '../../protocol/index.js';
import { savedCalls } from '../../session/index.js';

export function SaveCall({
  serverId,
  toolName,
  args,
}: {
  serverId: string;
  toolName: string;
  args: JsonObject;
}) {
  const name = useSignal('');
  const status = useSignal<{ text: string; error?: boolean }>({ text: '' });
  const save = () => {
    const chosen = name.value.trim() || toolName;
    savedCalls()
      .save({ name: chosen, serverId, toolName, arguments: args })
      .then(
        (saved) => {
          name.value = '';
          status.value = { text: `Saved as “${saved.name}”: find it in Activity, under Saved calls.` };
        },
        (error: unknown) => {
          status.value = { text: error instanceof Error ? error.message : String(error), error: true };
        },
      );
  };
  return (
    <details class="tg-save-call">
      <summary>Save this call</summary>
      <p class="tg-muted">Keeps the form’s arguments with a name; secrets in them are not kept.</p>
      <div class="tg-row">
        <label>
          Name of the saved call{' '}
          <input
            type="text"
            value={name.value}
            placeholder={toolName}
            onInput={(event) => {
              name.value = (event.currentTarget as HTMLInputElement).value;
            }}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              save();
            }}
          />
        </label>
        <button type="button" onClick={save}>
          Save call
        </button>
      </div>
      <p class={status.value.error ? 'tg-error' : 'tg-muted'} role="status">
        {status.value.text}
      </p>
    </details>
  );
}
