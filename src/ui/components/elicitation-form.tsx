/**
 * A server's request for input. Form mode: the message as text and the requested schema as a form
 * prefilled with its defaults; accept, decline or cancel. URL mode: the URL shown as text with its
 * host, opened only when the person clicks (that click is the consent), and only for http(s).
 */

import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import type { ElicitRequestParams, JsonObject } from '../../protocol/index.js';
import { safeHttpUrl } from './media.js';
import { SchemaForm, withDefaults } from './schema-form.js';

export type ElicitationAnswer =
  | { action: 'accept'; content: JsonObject }
  | { action: 'decline' }
  | { action: 'cancel' };

const NO_FIELDS: JsonObject = { type: 'object', properties: {} };

export function ElicitationForm({
  request,
  onAnswer,
}: {
  request: ElicitRequestParams;
  onAnswer: (answer: ElicitationAnswer) => void;
}) {
  const message = <p class="tg-elicit-message">{String(request.message ?? '')}</p>;
  const declineCancel = (
    <>
      <button type="button" class="tg-deny" onClick={() => onAnswer({ action: 'decline' })}>
        Decline
      </button>
      <button type="button" onClick={() => onAnswer({ action: 'cancel' })}>
        Cancel
      </button>
    </>
  );
  if (request.mode === 'url')
    return <UrlMode request={request} message={message} onAnswer={onAnswer} rest={declineCancel} />;
  return <FormMode request={request} message={message} onAnswer={onAnswer} rest={declineCancel} />;
}

interface ModeProps {
  request: ElicitRequestParams;
  message: ComponentChildren;
  onAnswer: (answer: ElicitationAnswer) => void;
  rest: ComponentChildren;
}

function FormMode({ request, message, onAnswer, rest }: ModeProps) {
  const schema =
    typeof request.requestedSchema === 'object' && request.requestedSchema !== null
      ? request.requestedSchema
      : NO_FIELDS;
  const value = useSignal<JsonObject>(withDefaults(schema, {}));
  const idPrefix = `tg-elicit-${String(request.elicitationId ?? 'form')}`;
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
        idPrefix={idPrefix}
        onChange={(next) => {
          value.value = next;
        }}
      />
      <div class="tg-actions">
        <button type="submit" class="tg-allow">
          Accept
        </button>
        {rest}
      </div>
    </form>
  );
}

function UrlMode({ request, message, onAnswer, rest }: ModeProps) {
  const raw = typeof request.url === 'string' ? request.url : '';
  const url = safeHttpUrl(raw);
  return (
    <div class="tg-elicit">
      {message}
      <p>The server asks you to open this address:</p>
      <p>
        <code class="tg-inert-uri">{raw || '(no address given)'}</code>
      </p>
      {url ? (
        <p>
          It leads to <strong class="tg-host">{url.host}</strong>.
        </p>
      ) : (
        <p class="tg-warning">Not an http(s) address, so it will not be opened.</p>
      )}
      <div class="tg-actions">
        {url && (
          <button
            type="button"
            class="tg-allow"
            onClick={() => {
              // Opened only now, on the person's click; noopener keeps the page from reaching back to us.
              window.open(url.href, '_blank', 'noopener,noreferrer');
              // In URL mode "accept" means the person consented to go there; there is no content.
              onAnswer({ action: 'accept', content: {} });
            }}
          >
            Open in a new tab
          </button>
        )}
        {rest}
      </div>
    </div>
  );
}
