/**
 * The person's queue: what waits for the person to answer in the panel. Approvals (the gate's
 * Approver), questions a server asks (elicitations) and sign-ins a server needs. Each item leaves the
 * queue when it is answered, or at once when nobody waits for it any more (its call ended, the server
 * withdrew it, the connection closed), so no dialog asks about something that is over.
 */

import { type Signal, signal } from '@preact/signals';
import { type AuthorizationRequest, signInDeclined } from '../auth/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gate/index.js';
import type { ElicitRequestParams, ElicitResult } from '../protocol/index.js';
import type { PendingAccess, PendingApproval, PendingElicitation, PendingSignIn } from './types.js';

export interface PersonQueue {
  readonly approvals: Signal<PendingApproval[]>;
  readonly elicitations: Signal<PendingElicitation[]>;
  readonly signIns: Signal<PendingSignIn[]>;
  /** Reads and prompt gets from others waiting for the person (the gate's approveAccess). */
  readonly accesses: Signal<PendingAccess[]>;
  /** The gate's Approver: each approval waits in the queue for the person's answer. */
  readonly approver: Approver;
  /** Queues a server's question for the person (the client's elicitation handler). */
  ask(
    serverId: string,
    request: ElicitRequestParams,
    context: { toolName?: string; taskId?: string; signal?: AbortSignal },
  ): Promise<ElicitResult>;
  /**
   * Asks the person before a sign-in window opens; `way` says how they go to sign in; `onCard` says,
   * when the sign-in is asked for, whether it waits on the server's card instead of a dialog.
   */
  askToSignIn(
    serverId: string,
    way: NonNullable<PendingSignIn['way']>,
    onCard?: () => boolean,
  ): (request: AuthorizationRequest) => Promise<void>;
  /** Nobody is left to answer: settles everything waiting (denied, cancelled, declined). */
  settleAll(): void;
}

const CANCELLED_BY_CALLER = 'the caller cancelled the call';

export function createPersonQueue(
  /** The server's name as the panel shows it, for the sentence of a declined sign-in. */
  serverLabel: (serverId: string) => string,
): PersonQueue {
  const approvals = signal<PendingApproval[]>([]);
  const elicitations = signal<PendingElicitation[]>([]);
  const signIns = signal<PendingSignIn[]>([]);
  const accesses = signal<PendingAccess[]>([]);

  const approver: Approver = {
    approve: (request: ApprovalRequest) =>
      new Promise<ApprovalAnswer>((resolve) => {
        // The caller gave up before the question was queued (an abort listener added now would
        // never fire): never show it, or it would wait in the dialog for a call that has ended.
        if (request.signal.aborted)
          return resolve({ action: 'deny', reason: CANCELLED_BY_CALLER, decidedBy: 'toolgate' });
        const remove = () => {
          approvals.value = approvals.value.filter(
            (item) => item.request.invocationId !== request.invocationId,
          );
        };
        // The caller gave up (cancelled) while the person was looking: take it off the queue.
        request.signal.addEventListener('abort', () => {
          remove();
          resolve({ action: 'deny', reason: CANCELLED_BY_CALLER, decidedBy: 'toolgate' });
        });
        approvals.value = [
          ...approvals.value,
          {
            request,
            receivedAt: Date.now(),
            answer: (answer) => {
              remove();
              resolve(answer);
            },
          },
        ];
      }),
    // Reads and prompt gets asked of the person (a site's, an app's, the host's): queued like calls.
    approveAccess: (request) =>
      new Promise<ApprovalAnswer>((resolve) => {
        if (request.signal.aborted)
          return resolve({ action: 'deny', reason: CANCELLED_BY_CALLER, decidedBy: 'toolgate' });
        const remove = () => {
          accesses.value = accesses.value.filter((item) => item.request !== request);
        };
        request.signal.addEventListener('abort', () => {
          remove();
          resolve({ action: 'deny', reason: CANCELLED_BY_CALLER, decidedBy: 'toolgate' });
        });
        accesses.value = [
          ...accesses.value,
          {
            request,
            answer: (answer) => {
              remove();
              resolve(answer);
            },
          },
        ];
      }),
  };

  function ask(
    serverId: string,
    request: ElicitRequestParams,
    context: { toolName?: string; taskId?: string; signal?: AbortSignal },
  ): Promise<ElicitResult> {
    const { signal: abort } = context;
    if (abort?.aborted) return Promise.resolve({ action: 'cancel' });
    return new Promise<ElicitResult>((resolve) => {
      const id = crypto.randomUUID();
      const settle = (result: ElicitResult) => {
        abort?.removeEventListener('abort', withdraw);
        elicitations.value = elicitations.value.filter((item) => item.id !== id);
        resolve(result);
      };
      const withdraw = () => settle({ action: 'cancel' });
      abort?.addEventListener('abort', withdraw, { once: true });
      elicitations.value = [
        ...elicitations.value,
        {
          id,
          serverId,
          ...(context.toolName ? { toolName: context.toolName } : {}),
          ...(context.taskId ? { taskId: context.taskId } : {}),
          request,
          answer: settle,
        },
      ];
    });
  }

  const askToSignIn =
    (serverId: string, way: NonNullable<PendingSignIn['way']>, onCard?: () => boolean) =>
    (request: AuthorizationRequest): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const id = crypto.randomUUID();
        const remove = () => {
          signIns.value = signIns.value.filter((item) => item.id !== id);
        };
        request.signal.addEventListener('abort', () => {
          remove();
          reject(new DOMException('Nobody waits for this sign-in any more.', 'AbortError'));
        });
        signIns.value = [
          ...signIns.value,
          {
            id,
            serverId,
            issuer: request.issuer,
            scopes: request.scopes,
            way,
            onCard: onCard?.() ?? false,
            show: () => {
              signIns.value = signIns.value.map((item) =>
                item.id === id ? { ...item, onCard: false } : item,
              );
            },
            accept: () => {
              remove();
              resolve();
            },
            decline: () => {
              remove();
              reject(
                signInDeclined(
                  `You chose not to sign in to ${serverLabel(serverId)} now, so it is not connected. Sign in when you want to use it.`,
                ),
              );
            },
          },
        ];
      });

  return {
    approvals,
    elicitations,
    signIns,
    accesses,
    approver,
    ask,
    askToSignIn,
    settleAll() {
      // Callers (a host's run()) get a denial on record instead of waiting for ever.
      for (const pending of [...approvals.value, ...accesses.value])
        pending.answer({ action: 'deny', reason: 'the Toolgate panel was closed', decidedBy: 'toolgate' });
      for (const pending of elicitations.value) pending.answer({ action: 'cancel' });
      for (const pending of signIns.value) pending.decline();
    },
  };
}
