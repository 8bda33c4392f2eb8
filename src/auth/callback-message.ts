/**
 * The message a callback page sends back to the page that opened the sign-in: only the URL it was
 * loaded at (code, state, iss or error are read and checked by the opener, not here).
 */

export const CALLBACK_MESSAGE_TYPE = 'toolgate:oauth-callback';
/** Same-origin fallback when the authorization server cut the opener link (COOP). */
export const CALLBACK_CHANNEL = 'toolgate-oauth-callback';

export interface CallbackMessage {
  type: typeof CALLBACK_MESSAGE_TYPE;
  url: string;
}

export function isCallbackMessage(value: unknown): value is CallbackMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.type === CALLBACK_MESSAGE_TYPE && typeof message.url === 'string';
}
