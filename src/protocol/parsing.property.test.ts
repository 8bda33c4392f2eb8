/**
 * Property tests (fast-check) for what parses server input: the JSON-RPC classifier, the engine
 * that routes what it classified, result normalisation, and the SSE-to-message path. Whatever a
 * server sends: nothing throws out of them, and nothing invalid becomes a success.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { normalizeCallToolResult } from '../client/index.js';
import { messageOfEvent, readSse } from '../transport/index.js';
import { RpcEngine } from './engine.js';
import { InvalidResponseError, ToolgateError } from './errors.js';
import { classifyMessage, isJsonObject, type JsonRpcRequest } from './jsonrpc.js';

/** Any JSON value, and shapes close to a JSON-RPC response (the interesting near misses). */
const anyJson = fc.jsonValue({ maxDepth: 4 });
const idLike = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), anyJson);
const nearResponse = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), anyJson),
    id: idLike,
    result: anyJson,
    error: fc.oneof(
      fc.record({ code: fc.oneof(fc.integer(), anyJson), message: fc.oneof(fc.string(), anyJson) }),
      anyJson,
    ),
    method: fc.oneof(fc.string({ maxLength: 12 }), anyJson),
    params: anyJson,
  },
  { requiredKeys: [] },
);

describe('classifyMessage', () => {
  it('never throws, and accepts a success only with exactly a result object and a usable id', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, nearResponse), (value) => {
        const classified = classifyMessage(value);
        if (classified.kind === 'success') {
          const message = value as Record<string, unknown>;
          expect(message.jsonrpc).toBe('2.0');
          expect(isJsonObject(message.result)).toBe(true);
          expect('error' in message).toBe(false);
          expect(typeof message.id === 'string' || Number.isFinite(message.id)).toBe(true);
        }
        if (classified.kind === 'invalid') expect(classified.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the engine on arbitrary answers', () => {
  it('settles the request with a valid result or a readable ToolgateError, never a bare exception', async () => {
    await fc.assert(
      fc.asyncProperty(nearResponse, async (answer) => {
        let request: JsonRpcRequest | undefined;
        const transport = new ScriptedTransport((r) => {
          request = r;
        });
        const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
        const pending = engine.request('tools/call', {}, { timeoutMs: 60_000 });
        await Promise.resolve();
        // The answer claims to be for the pending request.
        transport.onmessage?.({ ...answer, id: request!.id });
        const classified = classifyMessage({ ...answer, id: request!.id });
        if (
          classified.kind === 'request' ||
          classified.kind === 'notification' ||
          (classified.kind === 'invalid' && classified.responseTo === undefined)
        ) {
          // Not an answer (it has a method): the request is still waiting; closing ends it readably.
          await engine.close();
          await expect(pending).rejects.toBeInstanceOf(ToolgateError);
          return;
        }
        const settled = await pending.then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (settled.ok) expect(classified.kind).toBe('success');
        else {
          expect(settled.error).toBeInstanceOf(ToolgateError);
          if (classified.kind === 'invalid') expect(settled.error).toBeInstanceOf(InvalidResponseError);
        }
        await engine.close();
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeCallToolResult', () => {
  it('returns content that is an array of typed blocks, or throws InvalidResponseError', () => {
    const nearResult = fc.record(
      {
        content: fc.oneof(
          fc.array(fc.oneof(fc.record({ type: fc.string({ maxLength: 6 }), text: fc.string() }), anyJson), {
            maxLength: 4,
          }),
          anyJson,
        ),
        isError: fc.oneof(fc.boolean(), anyJson),
        structuredContent: anyJson,
        resultType: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(nearResult, (result) => {
        try {
          const normalized = normalizeCallToolResult(result as Record<string, unknown>, 'srv');
          expect(Array.isArray(normalized.content)).toBe(true);
          for (const block of normalized.content)
            expect(typeof (block as { type: unknown }).type).toBe('string');
          expect(normalized.isError === undefined || typeof normalized.isError === 'boolean').toBe(true);
          expect('resultType' in normalized).toBe(false);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidResponseError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the SSE-to-message path', () => {
  const source = { url: 'http://srv.test/mcp', label: 'srv', droppedSoFar: 0 };

  it('turns any byte stream into events whose payloads are JSON or counted errors, never exceptions', async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }),
      anyJson.map((value) => `data: ${JSON.stringify(value)}`),
      fc.constantFrom('', 'event: message', 'event: other', 'id: 7', 'retry: 5', 'retry: x', ':comment'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 20 }),
        fc.integer({ min: 1, max: 17 }),
        async (lines, cut) => {
          const text = lines.join('\n');
          const bytes = new TextEncoder().encode(text);
          // Split the bytes anywhere, even inside a multi-byte character, as a network would.
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              for (let offset = 0; offset < bytes.length; offset += cut)
                controller.enqueue(bytes.slice(offset, offset + cut));
              controller.close();
            },
          });
          const outcomes: unknown[] = [];
          await readSse(body, {
            onEvent: (event) => {
              const message = messageOfEvent(event, source);
              if (message && 'error' in message) expect(message.error).toBeInstanceOf(ToolgateError);
              outcomes.push(message);
            },
          });
          for (const outcome of outcomes)
            if (outcome && typeof outcome === 'object' && 'value' in outcome)
              expect(() => JSON.stringify((outcome as { value: unknown }).value)).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});
