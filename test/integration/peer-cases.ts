/**
 * What each real peer can do, and which of its tools exercise which behaviour. The facts about the
 * servers (not about Toolgate) live here so each test states only what it proves.
 */
import type { PeerKind } from '../../e2e/support/peers.js';
import type { JsonObject } from '../../src/protocol/jsonrpc.js';

export interface ToolCall {
  name: string;
  args: JsonObject;
}

export interface PeerCase {
  kind: PeerKind;
  era: 'modern' | 'legacy';
  /** The HTTP transport the server speaks (Toolgate must find it on its own). */
  transport: 'streamable-http' | 'http+sse';
  /** Our own peer: it records what reached it (GET /__events). */
  recording: boolean;
  /** The server streams progress mid-call (JSON-response servers cannot). */
  streamsProgress: boolean;
  /** A notifications/cancelled reaches the instance running the call (not so when stateless). */
  cancelNotificationReachesCall: boolean;
  /** How the server asks the user: legacy elicitation/create, a modern input_required round, or not at all. */
  elicitation: 'request' | 'input-required' | 'none';
  /** Tool names the listing must include. */
  tools: string[];
  echo: ToolCall & { expectText: string };
  progress: ToolCall & { steps: number };
  /** A call that runs long without progress (for cancel and timeout). */
  long: ToolCall;
}

const OURS = {
  recording: true,
  tools: ['echo', 'add', 'slow', 'sleep', 'fail', 'structured'],
  echo: { name: 'echo', args: { message: 'hello, peer' }, expectText: 'Echo: hello, peer' },
  progress: { name: 'slow', args: { steps: 3, delayMs: 50 }, steps: 3 },
  long: { name: 'sleep', args: { ms: 60_000 } },
};

const EVERYTHING = {
  recording: false,
  streamsProgress: true,
  cancelNotificationReachesCall: true,
  elicitation: 'request' as const,
  tools: ['echo', 'get-sum', 'trigger-long-running-operation', 'get-structured-content'],
  echo: { name: 'echo', args: { message: 'hello, everything' }, expectText: 'Echo: hello, everything' },
  progress: { name: 'trigger-long-running-operation', args: { duration: 0.6, steps: 3 }, steps: 3 },
  long: { name: 'trigger-long-running-operation', args: { duration: 30, steps: 1 } },
};

export const PEER_CASES: PeerCase[] = [
  {
    ...OURS,
    kind: 'sdk1-stateful-sse',
    era: 'legacy',
    transport: 'streamable-http',
    streamsProgress: true,
    cancelNotificationReachesCall: true,
    elicitation: 'request',
  },
  {
    ...OURS,
    kind: 'sdk1-stateful-json',
    era: 'legacy',
    transport: 'streamable-http',
    streamsProgress: false,
    cancelNotificationReachesCall: true,
    elicitation: 'request',
  },
  {
    ...OURS,
    kind: 'sdk1-stateless-json',
    era: 'legacy',
    transport: 'streamable-http',
    streamsProgress: false,
    cancelNotificationReachesCall: false,
    elicitation: 'none',
  },
  {
    ...OURS,
    kind: 'sdk1-stateless-sse',
    era: 'legacy',
    transport: 'streamable-http',
    streamsProgress: true,
    cancelNotificationReachesCall: false,
    elicitation: 'none',
  },
  {
    ...OURS,
    kind: 'sdk1-legacy-sse',
    era: 'legacy',
    transport: 'http+sse',
    streamsProgress: true,
    cancelNotificationReachesCall: true,
    elicitation: 'request',
  },
  {
    ...OURS,
    tools: [...OURS.tools, 'region', 'elicit'],
    kind: 'modern',
    era: 'modern',
    transport: 'streamable-http',
    streamsProgress: true,
    // Modern cancellation closes the response stream; there is no notification to send.
    cancelNotificationReachesCall: false,
    elicitation: 'input-required',
  },
  { ...EVERYTHING, kind: 'everything-streamable', era: 'legacy', transport: 'streamable-http' },
  { ...EVERYTHING, kind: 'everything-sse', era: 'legacy', transport: 'http+sse' },
];

/** Polls `probe` until it returns something other than undefined/false, or fails naming `what`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The text of a result's first text block. */
export function firstText(result: { content: readonly unknown[] }): string {
  const block = result.content.find(
    (item): item is { type: 'text'; text: string } =>
      typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'text',
  );
  return block?.text ?? '';
}
