/**
 * A server's request for input. Form mode: the requested schema as a form with its defaults;
 * accept, decline or cancel. URL mode: the URL shown as text with its host, opened only when the
 * person clicks, and only for http(s).
 */

import { useSignal } from '@preact/signals';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { ElicitRequestParams } from '../../protocol/types.js';
import { safeHttpUrl } from './result-view.js';
import { SchemaForm, withDefaults } from './schema-form.js';

export type ElicitationAnswer =
  | { action: 'accept'; content: JsonObject }
  | { action: 'decline' }
  | { action: 'cancel' };

export function ElicitationForm({
  request,
  onAnswer,
}: {
  request: ElicitRequestParams;
  onAnswer: (answer: ElicitationAnswer) => void;
}) {
  const schema = (request.requestedSchema ?? { type: 'object', properties: {} }) as JsonObject;
  const value = useSignal<JsonObject>(withDefaults(schema, {}));
  const opened = useSignal(false);
  const message = <p class="tg-elicit-message">{request.message}</p>;
  const declineCancel = (
    <>
      <button type="button" onClick={() => onAnswer({ action: 'decline' })}>
        Decline
      </button>
      <button type="button" onClick={() => onAnswer({ action: 'cancel' })}>
        Cancel
      </button>
    </>
  );

  if (request.mode === 'url') {
    const url = typeof request.url === 'string' ? safeHttpUrl(request.url) : undefined;
    return (
      <div class="tg-elicit">
        {message}
        <p>
          The server asks you to open <code>{String(request.url ?? '')}</code>
          {url ? ` (on ${url.host})` : ' — not an http(s) address, so it cannot be opened'}.
        </p>
        <div class="tg-actions">
          {url && (
            <button
              type="button"
              onClick={() => {
                window.open(url.href, '_blank', 'noopener,noreferrer');
                opened.value = true;
              }}
            >
              Open in a new tab
            </button>
          )}
          {opened.value && (
            <button type="button" onClick={() => onAnswer({ action: 'accept', content: {} })}>
              Done
            </button>
          )}
          {declineCancel}
        </div>
      </div>
    );
  }

  return (
    <form
      class="tg-elicit"
      onSubmit={(event) => {
        event.preventDefault();
        onAnswer({ action: 'accept', content: value.value });
      }}
    >
      {message}
      <SchemaForm
        schema={schema}
        value={value.value}
        idPrefix="tg-elicit"
        onChange={(next) => {
          value.value = next;
        }}
      />
      <div class="tg-actions">
        <button type="submit">Accept</button>
        {declineCancel}
      </div>
    </form>
  );
}
