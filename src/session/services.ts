/**
 * The heavy half of the controller: the gate, the schema validator, the policy store and the audit
 * log. It is its own module so the widget's first load (the panel, the connections, the tool list)
 * stays small; the controller imports it as soon as it is created, in parallel with connecting.
 */

import { type AuditLog, type AuditLogOptions, createAuditLog } from '../audit/index.js';
import type { McpClient, TaskPolling } from '../client/index.js';
import {
  type Approver,
  type AuditSink,
  type Caller,
  type ConfirmOwnCalls,
  createGate,
  createPolicy,
  type Gate,
  idbSettingsStore,
  idbTaskHandles,
  MemoryAuditSink,
  memoryTaskHandles,
  type Policy,
} from '../gate/index.js';
import { createSchemaValidator, type SchemaValidator } from '../schema/index.js';

export interface ControllerServices {
  gate: Gate;
  policy: Policy;
  /** Undefined when the host gave a plain AuditSink or asked for an in-memory log. */
  auditLog: AuditLog | undefined;
  /** The schema validator the gate uses (its stats say which engine ran). */
  validator: SchemaValidator;
  /** The live connections by server id, and the sink the gate records to: for the skills room. */
  clients: ReadonlyMap<string, McpClient>;
  audit: AuditSink;
}

export interface ServicesOptions {
  audit?: 'indexeddb' | 'memory' | AuditLog | AuditSink;
  auditName?: string;
  policy?: Policy;
  approvalTimeoutMs?: number;
  confirmOwnCalls?: ConfirmOwnCalls;
  trustedReadOnlyCallers?: ReadonlyArray<Caller['kind']>;
  schemaEngine?: 'auto' | 'cfworker';
  anchoring?: AuditLogOptions['anchoring'];
  onAnchor?: AuditLogOptions['onAnchor'];
  tasks?: { runAsTask?: boolean | ((serverId: string, toolName: string) => boolean); polling?: TaskPolling };
}

export async function createServices(
  options: ServicesOptions,
  servers: ReadonlyMap<string, McpClient>,
  approver: Approver,
  /** The name the person gave or saw for a server, for the approval dialog and messages. */
  serverLabel: (serverId: string) => string | undefined,
  /** Whether the host accepts unchecked arguments for this server (see ServerConfig). */
  acceptUncheckedArguments: (serverId: string) => boolean = () => false,
): Promise<ControllerServices> {
  const policy =
    options.policy ??
    createPolicy({
      store: idbSettingsStore(),
      ...(options.trustedReadOnlyCallers
        ? { defaults: { trustedReadOnlyCallers: options.trustedReadOnlyCallers } }
        : {}),
    });
  let auditLog: AuditLog | undefined;
  let audit: AuditSink;
  if (options.audit === undefined || options.audit === 'indexeddb') {
    auditLog = await createAuditLog({
      name: options.auditName ?? 'toolgate-audit',
      ...(options.anchoring !== undefined ? { anchoring: options.anchoring } : {}),
      ...(options.onAnchor ? { onAnchor: options.onAnchor } : {}),
    });
    audit = auditLog;
  } else if (options.audit === 'memory') {
    audit = new MemoryAuditSink();
  } else {
    audit = options.audit;
    if ('query' in options.audit) auditLog = options.audit as AuditLog;
  }
  const validator = createSchemaValidator({ engine: options.schemaEngine ?? 'auto' });
  const runAsTask = options.tasks?.runAsTask;
  const gate = createGate({
    servers,
    policy,
    approver,
    audit,
    validator,
    serverLabel: (serverId) => serverLabel(serverId) ?? serverId,
    acceptUncheckedArguments,
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    ...(options.confirmOwnCalls ? { confirmOwnCalls: options.confirmOwnCalls } : {}),
    // Task handles beside the audit log (its name with "-tasks"), so that each log resumes its own.
    taskHandles:
      options.audit === 'memory'
        ? memoryTaskHandles()
        : idbTaskHandles(`${options.auditName ?? 'toolgate-audit'}-tasks`),
    ...(runAsTask !== undefined
      ? { runAsTask: typeof runAsTask === 'function' ? runAsTask : () => runAsTask }
      : {}),
    ...(options.tasks?.polling ? { taskPolling: options.tasks.polling } : {}),
  });
  return { gate, policy, auditLog, validator, clients: servers, audit };
}
