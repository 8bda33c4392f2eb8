import { batch, signal } from '@preact/signals';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRAFFIC_KEPT, type TrafficEntry } from '../../src/session/index.js';
import { applyDiagnostics, sendDiagnostics } from './diagnostics-mirror.js';
import type { WireDiagnostics } from './wire.js';

type Records = Readonly<Record<string, readonly TrafficEntry[]>>;

/** The worker's record, the messages it sent, and the page's copy built from them (through JSON, as a port does). */
function mirror() {
  const source = signal<Records>({});
  const page = signal<Records>({});
  const sent: WireDiagnostics[] = [];
  const stop = sendDiagnostics('traffic', source, (message) => {
    sent.push(message);
    applyDiagnostics(page, JSON.parse(JSON.stringify(message)) as WireDiagnostics);
  });
  let seq = 0;
  /** Appends one message to a server's record, cut to the newest TRAFFIC_KEPT, as the controller does. */
  const append = (serverId: string) => {
    const entry: TrafficEntry = { seq: ++seq, at: seq, direction: 'sent', message: { id: seq } };
    source.value = {
      ...source.value,
      [serverId]: [...(source.value[serverId] ?? []), entry].slice(-TRAFFIC_KEPT),
    };
  };
  const remove = (serverId: string) => {
    const { [serverId]: _gone, ...rest } = source.value;
    source.value = rest;
  };
  return { source, page, sent, stop, append, remove };
}

describe('the Inspect records mirrored to an extension page', () => {
  it('sends each new message once, never the record again, and the page keeps the same record', () => {
    const { source, page, sent, append } = mirror();
    for (let i = 0; i < 3 * TRAFFIC_KEPT; i++) append('calc');
    // The first message starts the record; every later one carries only the message that was new.
    expect(sent[0]).toMatchObject({ serverId: 'calc', reset: true, entries: [{ seq: 1 }] });
    expect(sent.slice(1).every((message) => !message.reset && message.entries.length === 1)).toBe(true);
    expect(sent).toHaveLength(3 * TRAFFIC_KEPT);
    expect(page.value).toEqual(source.value);
    expect(page.value.calc).toHaveLength(TRAFFIC_KEPT);
  });

  it('a change to another server sends nothing for this one; a removed server is removed on the page', () => {
    const { page, sent, append, remove } = mirror();
    append('calc');
    append('notes');
    expect(sent.map((message) => message.serverId)).toEqual(['calc', 'notes']);
    remove('calc');
    expect(sent.at(-1)).toEqual({
      type: 'diagnostics',
      kind: 'traffic',
      serverId: 'calc',
      reset: true,
      entries: [],
    });
    expect(Object.keys(page.value)).toEqual(['notes']);
  });

  it('a record started over (a reconnect) is sent whole', () => {
    const { source, page, sent, append } = mirror();
    append('calc');
    append('calc');
    source.value = { calc: [{ seq: 99, at: 99, direction: 'received', message: {} }] };
    expect(sent.at(-1)).toMatchObject({ reset: true, entries: [{ seq: 99 }] });
    expect(page.value).toEqual(source.value);
  });

  it('whatever happens to the records, the page ends up with the worker’s (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('append' as const), server: fc.constantFrom('a', 'b', 'c') }),
            fc.record({ op: fc.constant('remove' as const), server: fc.constantFrom('a', 'b', 'c') }),
            fc.record({ op: fc.constant('burst' as const), server: fc.constantFrom('a', 'b') }),
            // Many messages before the page hears of any (one effect run): more than are kept, at times.
            fc.record({
              op: fc.constant('batch' as const),
              server: fc.constantFrom('a', 'b'),
              count: fc.integer({ min: 2, max: TRAFFIC_KEPT + 20 }),
            }),
          ),
          { maxLength: 60 },
        ),
        (operations) => {
          const { source, page, stop, append, remove } = mirror();
          for (const operation of operations) {
            const { op, server } = operation;
            if (op === 'remove') remove(server);
            else if (op === 'batch')
              batch(() => {
                for (let i = 0; i < operation.count; i++) append(server);
              });
            else for (let i = op === 'burst' ? TRAFFIC_KEPT + 5 : 1; i > 0; i--) append(server);
          }
          expect(page.value).toEqual(source.value);
          stop();
        },
      ),
      { numRuns: 60 },
    );
  });
});
