/** JSON-RPC 2.0 envelopes as MCP uses them (no batches), and a strict classifier for untrusted input. */

export type RequestId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** What a raw inbound value turned out to be. `invalid` carries a reason a developer can act on. */
type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'success'; message: JsonRpcSuccess }
  | { kind: 'failure'; message: JsonRpcFailure }
  /** `responseTo`: the id of a request this malformed response claims to answer, when it has one. */
  | { kind: 'invalid'; reason: string; responseTo?: RequestId };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Classifies an inbound message without trusting it. Servers are remote code: a malformed message
 * must be reported and dropped, never resolve the wrong request or throw into the page.
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (Array.isArray(value)) return { kind: 'invalid', reason: 'JSON-RPC batches are not supported by MCP' };
  if (!isJsonObject(value)) return { kind: 'invalid', reason: 'message is not a JSON object' };
  const hasMethod = 'method' in value;
  const hasId = 'id' in value;
  // A malformed message without a method that names a request is a bad answer to it: the engine
  // fails that request at once instead of letting it wait for a timeout.
  const invalid = (reason: string): ClassifiedMessage =>
    !hasMethod && isRequestId(value.id)
      ? { kind: 'invalid', reason, responseTo: value.id }
      : { kind: 'invalid', reason };
  if (value.jsonrpc !== '2.0') return invalid('missing "jsonrpc": "2.0"');
  if (hasMethod) {
    if (typeof value.method !== 'string' || value.method === '')
      return { kind: 'invalid', reason: '"method" must be a non-empty string' };
    if ('params' in value && value.params !== undefined && !isJsonObject(value.params))
      return { kind: 'invalid', reason: `"params" of ${value.method} must be an object` };
    if (!hasId) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isRequestId(value.id))
      return {
        kind: 'invalid',
        reason: `request ${value.method} has an id that is neither string nor number`,
      };
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError)
    return invalid(
      hasResult ? 'it carries both "result" and "error"' : 'it carries neither "result" nor "error"',
    );
  if (hasResult) {
    if (!isRequestId(value.id))
      return { kind: 'invalid', reason: 'a result must carry a string or number id' };
    if (!isJsonObject(value.result))
      return invalid(`"result" must be an object, not ${describeJsonType(value.result)}`);
    return { kind: 'success', message: value as unknown as JsonRpcSuccess };
  }
  const error = value.error;
  if (!isJsonObject(error) || typeof error.code !== 'number' || !Number.isInteger(error.code))
    return invalid('"error" must be an object with an integer "code"');
  if (typeof error.message !== 'string') return invalid('"error.message" must be a string');
  if (value.id !== null && !isRequestId(value.id))
    return { kind: 'invalid', reason: 'an error must carry a string, number or null id' };
  return { kind: 'failure', message: value as unknown as JsonRpcFailure };
}

/** "null", "an array", "a string": a JSON value's type as an error message names it. */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

/** True when `message` is a request (has both an id and a method). */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}
