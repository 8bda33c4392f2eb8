/**
 * What crosses the port between an extension page (side panel, popup, in-page prompt) and the
 * service worker that owns the controller. Chrome serializes port messages as JSON, so everything
 * here is plain data: functions (answer, cancel, validate) become commands, Sets become arrays,
 * AbortSignals stay behind in the worker.
 */

import type { OtlpExportStatus } from '../../src/audit/index.js';
import type { AccessApprovalRequest, ApprovalRequest } from '../../src/gate/index.js';
import type { ElicitRequestParams } from '../../src/protocol/index.js';
import type { FinishedCall, ServerConfig, ServerState } from '../../src/session/index.js';
import type { RefusedAuthOrigin } from '../sign-in/auth-origins.js';
import type { WireSignIn } from '../sign-in/prompts.js';
import type { ConsentRequest, SiteGrant } from '../site-access.js';

export type { WireSignIn } from '../sign-in/prompts.js';

export type WireServer = Omit<ServerState, 'disabled' | 'config'> & {
  disabled: string[];
  config: WireServerConfig;
};

/** The serializable part of a server's configuration; headers stay in the worker. */
export type WireServerConfig = Pick<ServerConfig, 'id' | 'url' | 'label' | 'address'> & {
  hasHeaders?: boolean;
};

export interface WireApproval {
  request: Omit<ApprovalRequest, 'validate' | 'signal'>;
  receivedAt: number;
}

/** A read or prompt get from a site waiting for the person (the panel's access dialog). */
export interface WireAccess {
  request: Omit<AccessApprovalRequest, 'signal'>;
}

export interface WireRunningCall {
  invocationId: string;
  serverId: string;
  toolName: string;
  caller: ApprovalRequest['caller'];
  startedAt: number;
  sentAt?: number;
  timeoutMs: number;
  progress?: { progress: number; total?: number | undefined; message?: string | undefined };
}

export interface WireElicitation {
  id: string;
  serverId: string;
  request: ElicitRequestParams;
}

/** The worker's state, one key at a time. */
export interface WireState {
  servers: WireServer[];
  approvals: WireApproval[];
  accesses: WireAccess[];
  running: WireRunningCall[];
  finished: FinishedCall[];
  elicitations: WireElicitation[];
  consents: ConsentRequest[];
  sites: SiteGrant[];
  /** Servers asking the person to sign in (the worker opens nothing before they answer). */
  signIns: WireSignIn[];
  /** Authorization servers that refused CORS to the extension while a server signed in. */
  refusedAuthOrigins: RefusedAuthOrigin[];
  /** Bumped when rules or remembered approvals change (the Approvals view re-reads them). */
  rememberedVersion: number;
  /** The audit log's export to a collector, run by the worker as policy says (null: none runs). */
  auditExport: OtlpExportStatus | null;
}

export type WireStateKey = keyof WireState;

export const WIRE_STATE_KEYS: readonly WireStateKey[] = [
  'servers',
  'approvals',
  'accesses',
  'running',
  'finished',
  'elicitations',
  'consents',
  'sites',
  'signIns',
  'refusedAuthOrigins',
  'rememberedVersion',
  'auditExport',
];

/** A failure as it crosses the wire: the sentence for the person and the machine-readable kind. */
export interface WireError {
  message: string;
  kind?: string;
}

/** The Inspect view's records: each server's JSON-RPC messages, and its log messages. */
export type DiagnosticsKind = 'traffic' | 'serverLog';

/** What is new in one server's record since the last message; `reset`: the record whole. */
export interface WireDiagnostics {
  type: 'diagnostics';
  kind: DiagnosticsKind;
  serverId: string;
  reset: boolean;
  entries: unknown[];
}

/** A server's resource or prompt list changed, or a subscribed resource was updated. */
interface WireOfferingsChange {
  type: 'offerings';
  serverId: string;
  change: 'updated' | 'listChanged';
  uri?: string;
}

export type WorkerToPage =
  | { type: 'state'; key: WireStateKey; value: unknown }
  | WireDiagnostics
  | WireOfferingsChange
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: WireError };

export interface PageCommand {
  type: 'command';
  id: number;
  method: string;
  params: unknown[];
}

export function toWireError(error: unknown): WireError {
  if (error instanceof Error) {
    const kind = (error as Error & { kind?: unknown }).kind;
    return { message: error.message, kind: typeof kind === 'string' ? kind : error.name };
  }
  return { message: String(error) };
}

/** An Error again on the page side, with the worker's kind kept (DeniedError, TimeoutError, ...). */
export function fromWireError(error: WireError): Error & { kind?: string } {
  const rebuilt = new Error(error.message) as Error & { kind?: string };
  if (error.kind) {
    rebuilt.kind = error.kind;
    rebuilt.name = error.kind;
  }
  return rebuilt;
}

/** The runtime port name extension pages open to the service worker. */
export const PANEL_PORT = 'toolgate-panel';
