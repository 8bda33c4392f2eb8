/**
 * Sign-ins in the audit log, through the gate's own AuditSink (the log has no record kind for
 * them, and none is added): each sign-in event is one entry whose "tool" is the action
 * (`auth/sign-in`, `auth/refresh`, `auth/sign-out`, `auth/sign-in-failed`, `auth/sign-in-declined`),
 * whose arguments say
 * which authorization server, scopes and kind of client, and whose definition hash is the
 * authorization server's issuer (what the action is bound to). Who: the person for sign-in, sign-out
 * and failures (they are the ones asked), Toolgate itself for a refresh. Never a token, a code or
 * a secret: AuthEvents carry none, and nothing else is read.
 *
 * A sign-in the person declined ("Not now") is not a failure: it is one refusal record,
 * `auth/sign-in-declined` with outcome `denied` and the person's "deny" as its decision, the way a
 * call the person denied is recorded (nothing was sent to the authorization server).
 *
 * Recorded after the fact (the sign-in is the authorization server's to grant, not the gate's),
 * in the order the events came; a failed write is reported to `onError`, never to the sign-in.
 */

import type { AuthEvent } from '../auth/index.js';
import {
  type AuditSink,
  type Caller,
  type InvocationOutcome,
  recordAction,
  refuseAction,
} from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';

export type SignInAction =
  | 'auth/sign-in'
  | 'auth/refresh'
  | 'auth/sign-out'
  | 'auth/sign-in-failed'
  | 'auth/sign-in-declined';

/** What the log says of a declined sign-in, as the views show it. */
const SIGN_IN_DECLINED_REASON = 'You chose not to sign in (Not now)';

export interface SignInAuditOptions {
  /** The server's id in the panel (the one its tool calls are logged under). */
  serverId: string;
  /** Who was asked to sign in. Default `{ kind: 'person' }`. */
  person?: Caller;
  /** Told when an entry could not be written. Default: a console warning. */
  onError?: (error: unknown) => void;
  now?: () => number;
}

const TOOLGATE: Caller = { kind: 'host', label: 'Toolgate (automatic refresh)' };

/**
 * An `onEvent` for the sign-in of one server that writes each event to `sink`, in order. The
 * returned function is also `flushed()`: resolves when every event so far is written.
 */
export function recordSignIns(
  sink: AuditSink,
  options: SignInAuditOptions,
): ((event: AuthEvent) => void) & { flushed(): Promise<void> } {
  const now = options.now ?? Date.now;
  let queue: Promise<void> = Promise.resolve();
  const record = (event: AuthEvent) => {
    // Tokens found from an earlier page: that sign-in was recorded when it happened.
    if (event.type === 'restored') return;
    const at = now();
    queue = queue
      .then(() => write(sink, options, event, at))
      .catch((error: unknown) =>
        options.onError
          ? options.onError(error)
          : console.warn(`Toolgate: the audit log could not record a sign-in to ${options.serverId}`, error),
      );
  };
  return Object.assign(record, { flushed: () => queue });
}

async function write(
  sink: AuditSink,
  options: SignInAuditOptions,
  event: Exclude<AuthEvent, { type: 'restored' }>,
  at: number,
): Promise<void> {
  const caller = event.type === 'refreshed' ? TOOLGATE : (options.person ?? { kind: 'person' });
  if (event.type === 'failed' && event.declined) {
    await refuseAction(
      sink,
      {
        serverId: options.serverId,
        action: 'auth/sign-in-declined',
        boundTo: '',
        caller,
        details: { server: event.server, step: event.step },
        decision: {
          verdict: 'deny',
          source: { kind: 'default', reason: 'sign-in' },
          reason: SIGN_IN_DECLINED_REASON,
        },
      },
      SIGN_IN_DECLINED_REASON,
      () => at,
    );
    return;
  }
  const { action, details, issuer, outcome, summary, error } = describe(event);
  await recordAction(
    sink,
    {
      serverId: options.serverId,
      action,
      boundTo: issuer ?? '',
      caller,
      details,
      decision: {
        verdict: 'allow',
        source: { kind: 'default', reason: 'sign-in' },
        reason: issuer ? `Decided at the authorization server ${issuer}` : 'Decided in Toolgate',
      },
    },
    {
      outcome,
      ...(summary ? { result: { content: [{ type: 'text', text: summary }] } } : {}),
      ...(error ? { error } : {}),
    },
    // Both records carry the moment the event happened, not when the queue reached it.
    () => at,
  );
}

interface Described {
  action: SignInAction;
  details: JsonObject;
  issuer?: string;
  outcome: InvocationOutcome;
  summary?: string;
  error?: { kind: string; message: string };
}

function describe(event: Exclude<AuthEvent, { type: 'restored' }>): Described {
  switch (event.type) {
    case 'signed-in':
      return {
        action: 'auth/sign-in',
        details: { server: event.server, issuer: event.issuer, scopes: event.scopes, client: event.client },
        issuer: event.issuer,
        outcome: 'success',
        summary: `Signed in to ${event.server} at ${event.issuer}${event.scopes.length ? ` (${event.scopes.join(' ')})` : ''}`,
      };
    case 'refreshed':
      return {
        action: 'auth/refresh',
        details: { server: event.server, issuer: event.issuer },
        issuer: event.issuer,
        outcome: 'success',
        summary: `Access to ${event.server} renewed at ${event.issuer}`,
      };
    case 'signed-out':
      return {
        action: 'auth/sign-out',
        details: {
          server: event.server,
          ...(event.issuer ? { issuer: event.issuer } : {}),
          revoked: event.revoked,
        },
        ...(event.issuer ? { issuer: event.issuer } : {}),
        outcome: 'success',
        summary: `Signed out of ${event.server}${event.revoked ? ' (the authorization server revoked the grant)' : ' (tokens forgotten here; nothing to revoke)'}`,
      };
    case 'failed':
      return {
        action: 'auth/sign-in-failed',
        details: { server: event.server, step: event.step },
        outcome: 'protocol-error',
        error: { kind: `sign-in: ${event.step}`, message: event.message },
      };
  }
}
