import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../protocol/index.js';
import { weighChange } from './definition-weight.js';

function send(): Tool {
  return {
    name: 'send',
    title: 'Send',
    description: 'Sends a message.',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string', maxLength: 100 },
        priority: { enum: ['low', 'high'] },
        count: { type: 'integer', minimum: 1, maximum: 10 },
      },
      required: ['to', 'count'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  };
}

/** `send()` changed by `edit`, which may mutate the copy it is given. */
// biome-ignore lint/suspicious/noExplicitAny: the edits reach deep into a schema written just above.
type Editable = Tool & { inputSchema: Record<string, any> };

function changed(edit: (tool: Editable) => void): Tool {
  const tool = structuredClone(send()) as Editable;
  edit(tool);
  return tool;
}

const weightOf = (after: Tool) => weighChange(send(), after).weight;

describe('weighChange', () => {
  it('reads a changed title, description or annotation title as wording: asked again, not flagged', () => {
    expect(weightOf(changed((t) => (t.description = 'Sends a message. Now faster.')))).toBe('wording');
    expect(weightOf(changed((t) => (t.title = 'Send it')))).toBe('wording');
    expect(weightOf(changed((t) => (t.annotations = { ...t.annotations, title: 'Sender' })))).toBe('wording');
    expect(weightOf(changed((t) => (t.inputSchema.properties.to.description = 'Who gets it')))).toBe(
      'wording',
    );
    expect(
      weighChange(
        send(),
        changed((t) => (t.title = 'x')),
      ).widening,
    ).toEqual([]);
  });

  it('flags every widening change: looser schema, risky hints turned on, read-only turned off', () => {
    const widening: [string, Tool][] = [
      ['required dropped', changed((t) => (t.inputSchema.required = ['to']))],
      ['enum member added', changed((t) => t.inputSchema.properties.priority.enum.push('urgent'))],
      ['new argument', changed((t) => (t.inputSchema.properties.cc = { type: 'string' }))],
      ['bound relaxed', changed((t) => (t.inputSchema.properties.count.maximum = 1000))],
      ['bound removed', changed((t) => delete t.inputSchema.properties.to.maxLength)],
      ['type widened', changed((t) => (t.inputSchema.properties.count.type = ['integer', 'string']))],
      ['opened', changed((t) => delete t.inputSchema.additionalProperties)],
      ['destructive on', changed((t) => (t.annotations = { ...t.annotations, destructiveHint: true }))],
      [
        'destructive left to its default',
        changed((t) => (t.annotations = { readOnlyHint: false, openWorldHint: false })),
      ],
      ['open world on', changed((t) => (t.annotations = { ...t.annotations, openWorldHint: true }))],
      [
        'read-only off',
        {
          ...send(),
          annotations: { readOnlyHint: false },
        },
      ],
    ];
    for (const [what, after] of widening) {
      const weighed = weighChange(send(), after);
      expect(weighed.weight, what).toBe('widening');
      expect(weighed.widening.length, what).toBeGreaterThan(0);
    }
    const readOnly = { ...send(), annotations: { readOnlyHint: true } };
    expect(weighChange(readOnly, send()).widening).toContain(
      'annotations.readOnlyHint: no longer says it only reads',
    );
  });

  it('reads a change that only narrows or reorders as narrowing: the approval still holds', () => {
    const narrowing: [string, Tool][] = [
      ['required added', changed((t) => t.inputSchema.required.push('priority'))],
      ['required reordered', changed((t) => t.inputSchema.required.reverse())],
      ['enum member removed', changed((t) => (t.inputSchema.properties.priority.enum = ['low']))],
      ['enum reordered', changed((t) => t.inputSchema.properties.priority.enum.reverse())],
      ['bound tightened', changed((t) => (t.inputSchema.properties.count.maximum = 5))],
      ['bound added', changed((t) => (t.inputSchema.properties.to.pattern = '^[a-z]+@'))],
      ['argument dropped from a closed schema', changed((t) => delete t.inputSchema.properties.priority)],
      ['read-only on', changed((t) => (t.annotations = { ...t.annotations, readOnlyHint: true }))],
      [
        'keys reordered',
        { ...send(), annotations: { openWorldHint: false, destructiveHint: false, readOnlyHint: false } },
      ],
    ];
    for (const [what, after] of narrowing)
      expect(weighChange(send(), after), what).toEqual({ weight: 'narrowing', widening: [] });
  });

  it('a schema change it does not understand counts as widening', () => {
    expect(weightOf(changed((t) => (t.inputSchema.properties.to.oneOf = [{ type: 'string' }])))).toBe(
      'widening',
    );
    expect(weightOf(changed((t) => (t.inputSchema.properties.to = true)))).toBe('widening');
  });

  it('the heaviest change wins, and reversing a narrowing change widens (property)', () => {
    const both = changed((t) => {
      t.description = 'new words';
      t.inputSchema.required = ['to'];
    });
    expect(weightOf(both)).toBe('widening');
    fc.assert(
      fc.property(
        fc.subarray(['to', 'count', 'priority'], { minLength: 0 }),
        fc.subarray(['to', 'count', 'priority'], { minLength: 0 }),
        (a, b) => {
          const before = changed((t) => (t.inputSchema.required = a));
          const after = changed((t) => (t.inputSchema.required = b));
          const dropped = a.some((name) => !b.includes(name));
          expect(weighChange(before, after).weight).toBe(dropped ? 'widening' : 'narrowing');
        },
      ),
    );
  });
});
