/**
 * What the popup shows of the service worker's state, read over the same port the side panel uses
 * (remote/wire.ts) but without the panel's controller: only the keys the popup needs, and one
 * command (deny). Kept apart from remote-controller.ts so the popup's bundle stays small.
 */

import type { ApprovalAnswer } from '../src/gate/index.js';
import type { PageCommand, WireApproval, WireServer, WireSignIn, WorkerToPage } from './remote/wire.js';
import type { ConsentRequest } from './site-access.js';

export interface PopupState {
  /** Undefined until the worker has sent its list (so "no servers" is never said too early). */
  servers: WireServer[] | undefined;
  approvals: WireApproval[];
  signIns: WireSignIn[];
  consents: ConsentRequest[];
}

export const EMPTY_POPUP_STATE: PopupState = { servers: undefined, approvals: [], signIns: [], consents: [] };

export interface PopupConnection {
  answerApproval(invocationId: string, answer: ApprovalAnswer): void;
  close(): void;
}

/** Follows the worker's state over a port from `connect`; reconnects when Chrome stops the worker. */
export function followWorker(
  connect: () => chrome.runtime.Port,
  onState: (update: (state: PopupState) => PopupState) => void,
): PopupConnection {
  let port: chrome.runtime.Port | undefined;
  let closed = false;
  let nextId = 1;
  const open = () => {
    const current = connect();
    port = current;
    current.onMessage.addListener((message: WorkerToPage) => {
      if (message.type !== 'state') return;
      const { key, value } = message;
      if (key === 'servers' || key === 'approvals' || key === 'signIns' || key === 'consents')
        onState((state) => ({ ...state, [key]: value }));
    });
    current.onDisconnect.addListener(() => {
      // A stopped worker: connecting again starts it, and it sends its state afresh.
      if (!closed) open();
    });
  };
  open();
  return {
    answerApproval(invocationId, answer) {
      const command: PageCommand = {
        type: 'command',
        id: nextId++,
        method: 'answerApproval',
        params: [invocationId, answer],
      };
      port?.postMessage(command);
    },
    close() {
      closed = true;
      port?.disconnect();
    },
  };
}
