/**
 * Reads (`resources/read`) and prompt gets (`prompts/get`) through the gate: the same flow as a
 * tool call, with "what is invoked" a resource or a prompt instead of a tool:
 *   resolve -> validate -> decide -> approve -> record pending -> send -> check -> record final.
 * The shared parts are the tool call's own (call-context.ts: the call's context, refusals on
 * record, audit failures; approve-step.ts: the wait for a person with its deadline; send-step.ts:
 * the pending, re-send, failure and final records); what differs per kind is here: what resolves (the capability, the prompt's
 * listing), what is validated (a URI, the prompt's required arguments), the default policy (the
 * person's own reads are allowed, a site's, an app's or the host's model's are asked) and what is
 * checked in the answer (MIME types, size caps, text vs blob).
 *
 * An approval may be remembered ("for this session", "always") like a tool's: for one caller, one
 * server and one resource URI or one prompt (any arguments), under the grant name `resources/read
 * <uri>` or `prompts/get <name>`; a prompt's grant stops applying when its listing changes.
 *
 * In the audit log a read is recorded as `resources/read` with `{uri}` and a get as `prompts/get`
 * with `{name, arguments}` (redacted like any arguments); the final record carries the redacted
 * answer (truncated like a tool result) and `received`: its size and SHA-256.
 */

import type { McpClient } from '../client/index.js';
import {
  type CallToolResult,
  CapabilityMissingError,
  ConnectionClosedError,
  canonicalJson,
  contentsBytes,
  type GetPromptResult,
  InvalidResponseError,
  isJsonObject,
  isMimeType,
  type JsonObject,
  type ReadResourceResult,
  RequestCancelledError,
  type ResendReason,
  sha256Hex,
  type Tool,
} from '../protocol/index.js';
import { waitForAnswer } from './approve-step.js';
import { type CallContext, type GateRuntime, refuse, startCall } from './call-context.js';
import { describeCaller, isOwnCaller } from './caller.js';
import { DeniedError, UnknownToolError } from './errors.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  recordFinished,
  recordResend,
  recordSendFailure,
  recordSending,
} from './send-step.js';
import type { AccessRequest, AccessTarget, Decision, InvocationRequest } from './types.js';

/** A read's answer above this many bytes (text as UTF-8, blobs decoded) is refused, not returned. */
export const DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024;

/** What the gate returns for a read or a prompt get. */
export interface AccessResult<T> {
  invocationId: string;
  serverId: string;
  result: T;
  decision: Decision;
  /** Bytes that came back and their SHA-256, as recorded. */
  received: { bytes: number; sha256: string };
  warnings: string[];
}

type Method = 'resources/read' | 'prompts/get';

/** Runs one read or prompt get through the gate. */
export async function runAccess<T extends ReadResourceResult | GetPromptResult>(
  gate: GateRuntime,
  request: AccessRequest,
  target: AccessTarget,
  maxBytes = DEFAULT_MAX_READ_BYTES,
): Promise<AccessResult<T>> {
  const method: Method = target.kind === 'resource' ? 'resources/read' : 'prompts/get';
  const args: JsonObject =
    target.kind === 'resource'
      ? { uri: target.uri }
      : { name: target.name, arguments: { ...(target.arguments ?? {}) } };
  // The tool call's context, with the method as what is invoked: one shape for every record.
  const invocation: InvocationRequest = { ...request, toolName: method, arguments: args };
  const call = startCall(gate, invocation);
  gate.emit({ type: 'requested', invocationId: call.invocationId, request: invocation });
  try {
    const { client, listed } = await resolveAccess(call, method, target); // 1 resolve
    await validateAccess(call, target, listed); // 2 validate
    // A prompt is pinned by its listing entry, a read by its target: the hash says what was approved.
    call.definitionHash = await sha256Hex(canonicalJson(listed ?? call.proposed));
    const decision = await decideAccess(call, method, target); // 3 decide
    const approvedBy = await approveAccess(call, client, method, target, listed, decision); // 4 approve
    await recordPendingAccess(call, decision, approvedBy); // 5 record
    const sentAt = gate.now();
    const result = (await sendAccess(call, client, method, target, sentAt)) as T; // 6 send
    const problem = checkAccessResult(method, result, maxBytes); // 7 check
    const received = await measure(result);
    await recordFinalAccess(call, sentAt, result, received, problem); // 8 record
    if (problem) throw new InvalidResponseError(request.serverId, method, problem);
    const done: AccessResult<T> = {
      invocationId: call.invocationId,
      serverId: request.serverId,
      result,
      decision,
      received,
      warnings: call.warnings,
    };
    gate.emit({
      type: 'accessed',
      invocationId: call.invocationId,
      serverId: request.serverId,
      method,
      received,
    });
    return done;
  } catch (error) {
    if (!call.sent && error instanceof DeniedError && error.by !== 'policy')
      await refuse(
        call,
        'denied',
        `${error.by === 'person' ? 'denied by the person' : 'nobody answered'}: ${error.reason}`,
      );
    if (!call.sent && error instanceof RequestCancelledError)
      await refuse(call, 'cancelled', 'the caller cancelled before it was approved');
    gate.emit({
      type: 'failed',
      invocationId: call.invocationId,
      error: error instanceof Error ? error : new Error(String(error)),
    });
    throw error;
  }
}

/** Step 1: a connected, working server that declared the capability; a prompt must be listed. */
async function resolveAccess(
  call: CallContext,
  method: Method,
  target: AccessTarget,
): Promise<{ client: McpClient; listed?: JsonObject }> {
  const { serverId } = call.request;
  const fail = async (error: Error): Promise<never> => {
    await refuse(call, 'denied', error.message);
    throw error;
  };
  const client = call.gate.options.servers.get(serverId);
  if (!client) return fail(new UnknownToolError(`No server "${serverId}" is connected: add it first.`));
  if (client.failure)
    return fail(
      new ConnectionClosedError(
        `${serverId} cannot take requests, so nothing was sent: ${client.failure.message}`,
      ),
    );
  const capability = target.kind === 'resource' ? 'resources' : 'prompts';
  if (!isJsonObject(client.capabilities[capability]))
    return fail(new CapabilityMissingError(serverId, capability, method));
  if (target.kind === 'prompt') {
    const listing = await client.listPrompts().catch((error: unknown) => fail(error as Error));
    const prompt = listing.prompts.find((p) => p.name === target.name);
    if (!prompt) return fail(new UnknownToolError(`${serverId} has no prompt named "${target.name}".`));
    return { client, listed: prompt as unknown as JsonObject };
  }
  // Resources need not be listed (templates make URIs); the listing entry is shown when there is one.
  return { client };
}

/** Step 2: a URI with a scheme; a prompt's required arguments present, every argument text. */
async function validateAccess(call: CallContext, target: AccessTarget, listed: JsonObject | undefined) {
  let problem: string | undefined;
  if (target.kind === 'resource') {
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target.uri))
      problem = `"${target.uri}" is not a URI (it has no scheme)`;
  } else {
    const given = target.arguments ?? {};
    const declared = Array.isArray(listed?.arguments) ? (listed.arguments as JsonObject[]) : [];
    const missing = declared.filter(
      (arg) => arg.required === true && given[arg.name as string] === undefined,
    );
    const notText = Object.keys(given).filter((name) => typeof given[name] !== 'string');
    if (missing.length > 0) problem = `the prompt needs ${missing.map((arg) => `"${arg.name}"`).join(', ')}`;
    else if (notText.length > 0) problem = `prompt arguments are text; ${notText.join(', ')} is not`;
  }
  if (!problem) return;
  await refuse(call, 'invalid-arguments', problem);
  throw new InvalidResponseError(call.request.serverId, call.request.toolName, problem);
}

/** The name a remembered approval of this read or prompt get is kept under. */
function accessGrantName(target: AccessTarget): string {
  return target.kind === 'resource' ? `resources/read ${target.uri}` : `prompts/get ${target.name}`;
}

/**
 * Step 3: the person's own reads and gets are allowed; a site's, an app's or the host's are asked,
 * unless the person remembered an approval of this read or prompt for exactly this caller.
 */
async function decideAccess(call: CallContext, method: Method, target: AccessTarget): Promise<Decision> {
  const { caller, serverId } = call.request;
  const what = method === 'resources/read' ? 'reads' : 'prompt gets';
  const name = accessGrantName(target);
  const grant =
    caller.kind === 'person' ? undefined : await call.gate.options.policy.findGrant?.(caller, serverId, name);
  const decision: Decision =
    caller.kind === 'person'
      ? {
          verdict: 'allow',
          source: { kind: 'default', reason: 'own-access' },
          reason: `Your own ${what} are allowed.`,
        }
      : grant && grant.definitionHash === call.definitionHash
        ? {
            verdict: 'allow',
            source: { kind: 'remembered', scope: grant.scope, grantId: grant.id },
            reason: `You ${grant.scope === 'session' ? 'allowed' : 'always allow'} ${name} for ${describeCaller(caller)}${grant.scope === 'session' ? ' for this session' : ''}.`,
          }
        : grant
          ? {
              verdict: 'ask',
              source: { kind: 'default', reason: 'definition-changed' },
              reason: `${name} changed since you allowed it for ${describeCaller(caller)}: look at it before allowing it again.`,
            }
          : {
              verdict: 'ask',
              source: { kind: 'default', reason: 'access-must-be-approved' },
              reason: `${isOwnCaller(caller) ? "The app's" : 'Every'} ${what} on your behalf are asked first.`,
            };
  call.decision = decision;
  call.decidedAt = call.gate.now();
  return decision;
}

/** Step 4: asks the person when the decision says so; an approver without approveAccess denies. */
async function approveAccess(
  call: CallContext,
  client: McpClient,
  method: Method,
  target: AccessTarget,
  listed: JsonObject | undefined,
  decision: Decision,
): Promise<string | undefined> {
  if (decision.verdict === 'allow') return undefined;
  const { serverId, caller } = call.request;
  const { options } = call.gate;
  const ask = options.approver.approveAccess?.bind(options.approver);
  if (!ask) {
    const denied = new DeniedError(serverId, method, 'policy', 'no approver can show reads and prompt gets');
    await refuse(call, 'denied', denied.message);
    throw denied;
  }
  call.gate.emit({ type: 'awaiting-approval', invocationId: call.invocationId });
  const answer = await waitForAnswer(call, async (signal, deadline) =>
    ask({
      invocationId: call.invocationId,
      serverId,
      serverLabel:
        options.serverLabel?.(serverId) ?? client.serverInfo?.title ?? client.serverInfo?.name ?? serverId,
      trust: await options.policy.trustOf(serverId),
      caller,
      method,
      target: structuredClone(target),
      ...(listed ? { listed: structuredClone(listed) } : {}),
      decision,
      signal,
      ...(deadline !== undefined ? { deadline } : {}),
    }),
  );
  // Edits are not taken: what the dialog showed is what is sent.
  if (answer.action === 'deny') throw new DeniedError(serverId, method, 'person', answer.reason ?? '');
  if (answer.remember !== 'once') {
    // Kept like a tool's approval, so the Approvals view lists it and Revoke ends it.
    const definition = {
      ...(listed ?? call.proposed),
      name: accessGrantName(target),
      inputSchema: { type: 'object' },
    };
    await options.policy.remember(
      caller,
      { serverId, tool: definition as unknown as Tool, definitionHash: call.definitionHash ?? '' },
      answer.remember,
      answer.decidedBy,
    );
  }
  return answer.decidedBy ?? 'approved';
}

/** Step 5: the tool call's pending record, with what the person was shown as the definition. */
async function recordPendingAccess(
  call: CallContext,
  decision: Decision,
  approvedBy: string | undefined,
): Promise<void> {
  const now = call.gate.now();
  await recordSending(call, {
    definitionHash: call.definitionHash ?? '',
    arguments: call.proposed,
    decision,
    decidedAt: call.decidedAt ?? now,
    ...(approvedBy ? { approvedBy, approvedAt: now } : {}),
  });
}

/** Step 6: over the transport; every re-send on record first; a failure gets its final record. */
async function sendAccess(
  call: CallContext,
  client: McpClient,
  method: Method,
  target: AccessTarget,
  sentAt: number,
): Promise<ReadResourceResult | GetPromptResult> {
  const { request, gate, invocationId } = call;
  gate.emit({ type: 'sent', invocationId, arguments: call.proposed });
  call.sent = true;
  let sends = 1;
  const options = {
    timeoutMs: request.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    ...(request.signal ? { signal: request.signal } : {}),
    subject: { server: request.serverId, tool: method },
    beforeResend: async (reason: ResendReason) => {
      sends++;
      await recordResend(call, reason, sends, call.definitionHash ?? '');
    },
  };
  try {
    return target.kind === 'resource'
      ? await client.readResource({ uri: target.uri }, options)
      : await client.getPrompt({ name: target.name, arguments: { ...(target.arguments ?? {}) } }, options);
  } catch (error) {
    await recordSendFailure(call, sentAt, error);
    throw error;
  }
}

/**
 * Step 7: what came back is usable. A read: every item's URI and MIME type well formed (the parser
 * dropped the rest), the whole under the size cap, text declared as text and blobs as blobs (a blob
 * that claims a text type is kept but a `text/html` or SVG is never text to render: that is the
 * viewer's rule). A prompt: its messages under the same cap.
 */
export function checkAccessResult(
  method: Method,
  result: ReadResourceResult | GetPromptResult,
  maxBytes: number,
): string | undefined {
  if (method === 'resources/read') {
    const { contents } = result as ReadResourceResult;
    let bytes = 0;
    for (const [index, item] of contents.entries()) {
      if (item.mimeType !== undefined && !isMimeType(item.mimeType))
        return `contents[${index}] has a malformed MIME type`;
      bytes += contentsBytes(item);
    }
    if (bytes > maxBytes) return `the resource is ${bytes} bytes, more than the ${maxBytes} Toolgate accepts`;
    return undefined;
  }
  const bytes = new TextEncoder().encode(JSON.stringify((result as GetPromptResult).messages)).length;
  return bytes > maxBytes
    ? `the prompt is ${bytes} bytes, more than the ${maxBytes} Toolgate accepts`
    : undefined;
}

/** Size (UTF-8 bytes of the canonical JSON) and SHA-256 of what came back, for the record. */
async function measure(result: JsonObject | ReadResourceResult | GetPromptResult) {
  const text = canonicalJson(result);
  return { bytes: new TextEncoder().encode(text).length, sha256: await sha256Hex(text) };
}

/** Step 8: the final record, with the answer (redacted and truncated by the log) and its digest. */
function recordFinalAccess(
  call: CallContext,
  sentAt: number,
  result: ReadResourceResult | GetPromptResult,
  received: { bytes: number; sha256: string },
  problem: string | undefined,
): Promise<void> {
  return recordFinished(call, sentAt, {
    outcome: problem ? 'invalid-output' : 'success',
    // The log stores any result object (redacted, truncated); its type names a tool's only.
    result: result as unknown as CallToolResult,
    received,
    ...(problem ? { error: { kind: 'invalid-response', message: problem } } : {}),
  });
}
