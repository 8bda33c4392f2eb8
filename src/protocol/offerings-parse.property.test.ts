/**
 * What servers send back about resources, templates, prompts and completions, generated at random
 * (well-formed and not): the parsers never throw, keep exactly the usable items, and what they keep
 * has the shape the types promise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParseNote } from './offerings.js';
import {
  base64Bytes,
  isBase64,
  isMimeType,
  keep,
  MAX_COMPLETION_VALUES,
  parseCompleteResult,
  parseCursor,
  parseGetPromptResult,
  parsePrompt,
  parseReadResult,
  parseResource,
  parseResourceTemplate,
  uriProblem,
} from './offerings-parse.js';

const goodUri = fc.webUrl().map((url) => url);
const anyValue = fc.anything({ withObjectString: true, withNullPrototype: false });
const mime = fc.oneof(
  fc.constantFrom('text/plain', 'application/json', 'image/png', 'text/html; charset=utf-8'),
  fc.string(),
);
const base64 = fc.uint8Array({ maxLength: 64 }).map((bytes) => btoa(String.fromCharCode(...bytes)));

const resourceLike = fc.record(
  {
    uri: fc.oneof(goodUri, fc.string(), anyValue),
    name: fc.oneof(fc.string({ minLength: 1 }), anyValue),
    mimeType: mime,
    size: fc.oneof(fc.nat(), fc.integer(), fc.double(), anyValue),
    title: fc.oneof(fc.string(), anyValue),
  },
  { requiredKeys: [] },
);

describe('parsing what servers send back', () => {
  it('keeps a resource only with a URI that has a scheme and a name; its optional fields have their types', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(resourceLike, anyValue), { maxLength: 20 }), (items) => {
        const notes: ParseNote[] = [];
        const kept = keep(items, 'resources', notes, parseResource);
        const usable = items.filter(
          (item) =>
            typeof item === 'object' &&
            item !== null &&
            !Array.isArray(item) &&
            uriProblem((item as { uri?: unknown }).uri) === undefined &&
            typeof (item as { name?: unknown }).name === 'string' &&
            (item as { name: string }).name !== '',
        );
        expect(kept.length).toBe(usable.length);
        expect(notes.filter((note) => note.message.startsWith('dropped')).length).toBe(
          items.length - kept.length,
        );
        for (const resource of kept) {
          expect(uriProblem(resource.uri)).toBeUndefined();
          if (resource.mimeType !== undefined) expect(isMimeType(resource.mimeType)).toBe(true);
          if (resource.size !== undefined)
            expect(Number.isSafeInteger(resource.size) && resource.size >= 0).toBe(true);
          if (resource.title !== undefined) expect(typeof resource.title).toBe('string');
        }
      }),
    );
  });

  it('keeps a template only with a URI template and a name', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record(
              { uriTemplate: fc.oneof(fc.string(), anyValue), name: fc.oneof(fc.string(), anyValue) },
              { requiredKeys: [] },
            ),
            anyValue,
          ),
        ),
        (items) => {
          const kept = keep(items, 'resourceTemplates', [], parseResourceTemplate);
          for (const template of kept) {
            expect(typeof template.uriTemplate).toBe('string');
            expect(template.uriTemplate).not.toBe('');
            expect(typeof template.name).toBe('string');
          }
        },
      ),
    );
  });

  it('keeps read contents with exactly one of text or well-formed base64, and counts their bytes', () => {
    const contents = fc.record(
      {
        uri: fc.oneof(goodUri, anyValue),
        text: fc.oneof(fc.string(), anyValue),
        blob: fc.oneof(base64, fc.string()),
        mimeType: mime,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(contents, anyValue), { maxLength: 10 }), (items) => {
        const parsed = parseReadResult({ contents: items });
        expect(parsed).toBeDefined();
        for (const item of parsed?.value.contents ?? []) {
          const hasText = 'text' in item && item.text !== undefined;
          const hasBlob = 'blob' in item && item.blob !== undefined;
          expect(hasText !== hasBlob).toBe(true);
          if (hasText) expect(typeof item.text).toBe('string');
          if (hasBlob) expect(isBase64(item.blob)).toBe(true);
          if (item.mimeType !== undefined) expect(isMimeType(item.mimeType)).toBe(true);
        }
      }),
    );
    expect(parseReadResult({ contents: 'nope' })).toBeUndefined();
  });

  it('measures base64 without decoding it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const blob = btoa(String.fromCharCode(...bytes));
        expect(isBase64(blob)).toBe(true);
        expect(base64Bytes(blob)).toBe(bytes.length);
      }),
    );
  });

  it('ends a listing on a cursor that is not a usable string, with a note', () => {
    fc.assert(
      fc.property(anyValue, (cursor) => {
        const notes: ParseNote[] = [];
        const next = parseCursor({ nextCursor: cursor as never }, notes);
        if (typeof cursor === 'string' && cursor !== '' && cursor.length <= 4096) expect(next).toBe(cursor);
        else {
          expect(next).toBeUndefined();
          if (cursor !== undefined && cursor !== null) expect(notes).toHaveLength(1);
        }
      }),
    );
  });

  it('keeps prompts with names, arguments with unique names and boolean "required"', () => {
    const argument = fc.record(
      {
        name: fc.oneof(fc.constantFrom('a', 'b', 'c'), anyValue),
        required: fc.oneof(fc.boolean(), anyValue),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            name: fc.oneof(fc.string(), anyValue),
            arguments: fc.oneof(fc.array(fc.oneof(argument, anyValue)), anyValue),
          },
          { requiredKeys: [] },
        ),
        (item) => {
          const prompt = parsePrompt(item, 'prompts[0]', []);
          if (!prompt) return;
          expect(typeof prompt.name).toBe('string');
          if (prompt.arguments !== undefined) {
            const names = prompt.arguments.map((arg) => arg.name);
            expect(new Set(names).size).toBe(names.length);
            for (const arg of prompt.arguments)
              if (arg.required !== undefined) expect(typeof arg.required).toBe('boolean');
          }
        },
      ),
    );
  });

  it('keeps prompt messages with a role and a usable content block', () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.oneof(fc.string(), anyValue) }),
      fc.record({
        type: fc.constantFrom('image', 'audio'),
        data: fc.oneof(base64, fc.string()),
        mimeType: mime,
      }),
      fc.record({
        type: fc.constant('resource'),
        resource: fc.record({ uri: goodUri, text: fc.string() }, { requiredKeys: [] }),
      }),
      anyValue,
    );
    const message = fc.record(
      { role: fc.oneof(fc.constantFrom('user', 'assistant'), anyValue), content: block },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(message, anyValue), { maxLength: 10 }), (messages) => {
        const parsed = parseGetPromptResult({ messages });
        for (const kept of parsed?.value.messages ?? []) {
          expect(['user', 'assistant']).toContain(kept.role);
          expect(typeof kept.content.type).toBe('string');
          if (kept.content.type === 'image') expect(isBase64(kept.content.data)).toBe(true);
        }
      }),
    );
  });

  it('keeps at most 100 completion values, all text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), anyValue), { maxLength: 150 }),
        anyValue,
        (values, total) => {
          const parsed = parseCompleteResult({ completion: { values, total: total as never } });
          expect(parsed?.value.completion.values.length).toBeLessThanOrEqual(MAX_COMPLETION_VALUES);
          for (const value of parsed?.value.completion.values ?? []) expect(typeof value).toBe('string');
          const kept = parsed?.value.completion.total;
          if (kept !== undefined) expect(Number.isSafeInteger(kept) && kept >= 0).toBe(true);
        },
      ),
    );
    expect(parseCompleteResult({ completion: { values: 'x' } })).toBeUndefined();
  });
});
