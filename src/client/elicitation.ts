/**
 * A server's questions to the person: legacy `elicitation/create` requests and modern
 * `input_required` rounds. Loaded by client.ts with `import()` when a server first asks, so a plain
 * call never carries it.
 */

import {
  type ElicitRequestParams,
  type ElicitResult,
  ErrorCode,
  isJsonObject,
  type JsonObject,
  McpError,
  relatedTaskOf,
  UnsupportedServerError,
} from '../protocol/index.js';
import type { ElicitationHandler } from './options.js';

/** Who asks, and who answers: the connection's server id and the host's handler (if any). */
export interface QuestionContext {
  serverId: string;
  onElicit: ElicitationHandler | undefined;
  /** The task the question belongs to, when it came from one (named in the dialog). */
  taskId?: string | undefined;
}

/**
 * Fills fields the person left out with the defaults the server's schema declares (SEP-1034). We
 * declare `elicitation.form.applyDefaults`, so the server may rely on it.
 */
export function applyElicitationDefaults(request: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || (request.mode ?? 'form') !== 'form') return result;
  const properties = isJsonObject(request.requestedSchema) ? request.requestedSchema.properties : undefined;
  if (!isJsonObject(properties)) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [key, schema] of Object.entries(properties))
    if (content[key] === undefined && isJsonObject(schema) && 'default' in schema)
      content[key] = schema.default;
  return { ...result, content };
}

/** Reads elicitation params from an untrusted object; undefined when they are not usable. */
function asElicitRequest(params: unknown): ElicitRequestParams | undefined {
  if (!isJsonObject(params) || typeof params.message !== 'string') return undefined;
  return params as ElicitRequestParams;
}

/**
 * Asks the host one question. `signal` aborts when nobody waits for the answer any more (the host
 * then withdraws the question). Without a handler the answer is a decline.
 */
export async function elicit(
  context: QuestionContext,
  params: unknown,
  toolName?: string,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const request = asElicitRequest(params);
  if (!request) throw new McpError(ErrorCode.InvalidParams, 'elicitation request without a message');
  if (!context.onElicit) return { action: 'decline' };
  // 2025-11-25: a task's question names its task in `_meta` (the dialog says which one it belongs to).
  const taskId = context.taskId ?? relatedTaskOf(request._meta);
  const answer = await context.onElicit(request, {
    serverId: context.serverId,
    ...(toolName ? { toolName } : {}),
    ...(taskId ? { taskId } : {}),
    ...(signal ? { signal } : {}),
  });
  return applyElicitationDefaults(request, answer);
}

/** The answers to one `input_required` round's `inputRequests`, asked one after another. */
export async function answerInputRequests(
  context: QuestionContext,
  requests: JsonObject,
  toolName: string | undefined,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  const responses: JsonObject = {};
  for (const [key, request] of Object.entries(requests)) {
    const method = isJsonObject(request) ? request.method : undefined;
    if (method !== 'elicitation/create')
      throw new UnsupportedServerError(
        `${context.serverId} asked for ${String(method)} during ${toolName ?? 'a request'}, which Toolgate does not support (it did not declare that capability)`,
      );
    responses[key] = await elicit(
      context,
      isJsonObject(request) ? request.params : undefined,
      toolName,
      signal,
    );
  }
  return responses;
}
