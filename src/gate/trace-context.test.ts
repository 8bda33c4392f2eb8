/** W3C traceparent checks: properties over generated values, and the spec's own example. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidTraceContextError,
  parseTraceparent,
  startTrace,
  traceFor,
  tracestateProblem,
} from './trace-context.js';

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const nonZeroHex = (length: number) => hex(length).filter((value) => /[^0]/.test(value));

describe('traceparent', () => {
  it('accepts the W3C and MCP example', () => {
    expect(parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01')).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: '00f067aa0ba902b7',
      flags: 1,
    });
  });

  it('accepts every version-00 value with non-zero ids, and keeps the ids and the sampled flag', () => {
    fc.assert(
      fc.property(nonZeroHex(32), nonZeroHex(16), hex(2), (traceId, spanId, flags) => {
        const trace = traceFor({ traceparent: `00-${traceId}-${spanId}-${flags}` }, 's', 't');
        expect(trace).toMatchObject({ traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 });
      }),
    );
  });

  it('refuses all-zero ids, other versions, wrong lengths, upper case and extra fields', () => {
    fc.assert(
      fc.property(nonZeroHex(32), nonZeroHex(16), hex(2), fc.nat(5), (traceId, spanId, flags, variant) => {
        const broken = [
          `00-${'0'.repeat(32)}-${spanId}-${flags}`,
          `00-${traceId}-${'0'.repeat(16)}-${flags}`,
          `01-${traceId}-${spanId}-${flags}`,
          `00-${traceId.slice(1)}-${spanId}-${flags}`,
          `00-${traceId}-${spanId}0-${flags}`,
          `00-${traceId}-${spanId}-${flags}-extra`,
        ][variant]!;
        expect(typeof parseTraceparent(broken)).toBe('string');
        expect(() => traceFor({ traceparent: broken }, 'srv', 'tool')).toThrow(InvalidTraceContextError);
      }),
    );
    expect(typeof parseTraceparent('00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01')).toBe('string');
    expect(typeof parseTraceparent('ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01')).toBe('string');
  });

  it('names the server, the tool and what to do', () => {
    expect(() => traceFor({ traceparent: 'nonsense' }, 'weather-srv', 'forecast')).toThrow(
      /forecast on weather-srv was not called.*Pass a traceparent/,
    );
  });

  it('starts sampled traces with fresh valid ids', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const trace = startTrace();
      expect(parseTraceparent(trace.traceparent)).toEqual({
        traceId: trace.traceId,
        spanId: trace.spanId,
        flags: 1,
      });
      ids.add(trace.traceId);
    }
    expect(ids.size).toBe(200);
  });
});

describe('tracestate', () => {
  it('accepts vendor lists and refuses malformed members', () => {
    expect(tracestateProblem('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE')).toBeUndefined();
    expect(tracestateProblem('tenant@vendor=value')).toBeUndefined();
    expect(tracestateProblem('=novalue')).toMatch(/not key=value/);
    expect(tracestateProblem('Upper=x')).toMatch(/not key=value/);
    expect(tracestateProblem(`a=${'x'.repeat(600)}`)).toMatch(/512/);
    expect(() =>
      traceFor(
        { traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01', tracestate: 'bad' },
        's',
        't',
      ),
    ).toThrow(InvalidTraceContextError);
  });
});
