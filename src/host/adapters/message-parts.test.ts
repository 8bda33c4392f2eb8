/**
 * The shared step of the message adapters: what a server sent in a prompt or a read, reduced to
 * parts a model API takes. fast-check throws arbitrary (and hostile) content blocks at it: it never
 * throws, never lets a type the API does not take through as media, and never drops a block without
 * saying so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, PromptMessage } from '../../protocol/index.js';
import { messageTurns, resourceMessages } from './message-parts.js';

const MEDIA = { images: new Set(['image/png']), audio: new Set(['audio/wav']) };
const PNG = 'iVBORw0KGgo=';

describe('message parts', () => {
  it('merges consecutive turns of one role and keeps order', () => {
    const messages: PromptMessage[] = [
      { role: 'user', content: { type: 'text', text: 'a' } },
      { role: 'user', content: { type: 'image', mimeType: 'IMAGE/PNG', data: PNG } },
      { role: 'assistant', content: { type: 'text', text: 'b' } },
      { role: 'user', content: { type: 'text', text: 'c' } },
    ];
    expect(messageTurns(messages, MEDIA)).toEqual([
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'a' },
          { kind: 'image', mimeType: 'image/png', data: PNG },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'text', text: 'b' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'c' }] },
    ]);
  });

  it('describes in words what the API cannot take: SVG, bad base64, binary blobs; leaves out user-only content', () => {
    const turns = messageTurns(
      [
        { role: 'user', content: { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'not base64!' } },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'file:///a.zip', mimeType: 'application/zip', blob: 'AAAA' },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'for you only', annotations: { audience: ['user'] } },
        },
        { role: 'user', content: { type: 'resource_link', uri: 'demo://x', name: 'x' } },
      ],
      MEDIA,
    );
    expect(turns[0]?.parts).toEqual([
      { kind: 'text', text: '[image: image/svg+xml, 5 bytes, not included]' },
      { kind: 'text', text: '[image: image/png, not included]' },
      { kind: 'text', text: '[resource file:///a.zip, application/zip] (binary, 3 bytes, not included)' },
      { kind: 'text', text: '[resource link: x <demo://x>]' },
    ]);
  });

  it('turns a read into user messages with embedded resources: text under its URI, an image as an image', () => {
    const messages = resourceMessages({
      contents: [
        { uri: 'demo://t', mimeType: 'text/plain', text: 'hello' },
        { uri: 'demo://i', mimeType: 'image/png', blob: PNG },
      ],
    });
    expect(messageTurns(messages, MEDIA)).toEqual([
      {
        role: 'user',
        parts: [
          { kind: 'text', text: '[resource demo://t, text/plain]\nhello' },
          { kind: 'text', text: '[resource demo://i, image/png]' },
          { kind: 'image', mimeType: 'image/png', data: PNG },
        ],
      },
    ]);
  });

  it('never throws on what servers send, and lets only accepted, well-formed media through', () => {
    const mime = fc.oneof(
      fc.constantFrom(
        'image/png',
        'image/PNG',
        'image/svg+xml',
        'text/html',
        'audio/wav',
        'image/png; x=1',
        '',
      ),
      fc.string(),
    );
    const data = fc.oneof(fc.base64String(), fc.string());
    const block: fc.Arbitrary<unknown> = fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.string() }),
      fc.record({ type: fc.constantFrom('image', 'audio'), mimeType: mime, data }),
      fc.record({ type: fc.constant('resource_link'), uri: fc.string(), name: fc.string() }),
      fc.record({
        type: fc.constant('resource'),
        resource: fc.record(
          { uri: fc.string(), mimeType: mime, text: fc.string(), blob: data },
          { requiredKeys: ['uri'] },
        ),
      }),
      fc.record({ type: fc.string(), annotations: fc.record({ audience: fc.array(fc.string()) }) }),
    );
    const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: block });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const turns = messageTurns(messages as PromptMessage[], MEDIA);
        for (const [index, turn] of turns.entries()) {
          if (index > 0) expect(turn.role).not.toBe(turns[index - 1]?.role);
          for (const part of turn.parts) {
            if (part.kind === 'text') expect(typeof part.text).toBe('string');
            else {
              expect(part.kind === 'image' ? MEDIA.images : MEDIA.audio).toContain(part.mimeType);
              expect(part.data).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
            }
          }
        }
        // Every block meant for the model shows up as at least one part.
        const shown = (messages as { content: ContentBlock }[]).filter(
          ({ content }) =>
            !(
              Array.isArray(content.annotations?.audience) &&
              !content.annotations.audience.includes('assistant')
            ) && !(content.type === 'text' && !content.text),
        ).length;
        expect(turns.reduce((sum, turn) => sum + turn.parts.length, 0)).toBeGreaterThanOrEqual(shown);
      }),
    );
  });
});
