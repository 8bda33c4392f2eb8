/**
 * A prompt's messages and a resource's contents in each provider's message format: Anthropic
 * Messages, OpenAI Chat Completions and Responses, Gemini. Text, images, audio and embedded
 * resources, in the shapes each API documents; what an API cannot take is said in words.
 */
import { describe, expect, it } from 'vitest';
import type { PromptMessage } from '../../protocol/index.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { toGeminiContents } from './gemini-messages.js';
import { resourceMessages } from './message-parts.js';
import { toOpenAIChatMessages, toOpenAIResponsesInput } from './openai-messages.js';

const PNG = 'iVBORw0KGgo=';
const WAV = 'UklGRg==';
/** server-everything's resource prompt and image prompt, in one conversation. */
const MESSAGES: PromptMessage[] = [
  { role: 'user', content: { type: 'text', text: 'Describe this:' } },
  { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PNG } },
  { role: 'assistant', content: { type: 'text', text: 'A tiny image.' } },
  { role: 'assistant', content: { type: 'image', mimeType: 'image/png', data: PNG } },
  {
    role: 'user',
    content: {
      type: 'resource',
      resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource 1' },
    },
  },
  { role: 'user', content: { type: 'audio', mimeType: 'audio/wav', data: WAV } },
];

describe('prompt messages for Anthropic', () => {
  it('gives text and base64 image blocks; audio and assistant media the API lacks are said in words', () => {
    expect(toAnthropicMessages(MESSAGES)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe this:' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A tiny image.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[resource demo://text/1, text/plain]\nResource 1' },
          { type: 'text', text: '[audio: audio/wav, 4 bytes, not included]' },
        ],
      },
    ]);
  });

  it('attaches a read resource as a user turn', () => {
    expect(
      toAnthropicMessages(
        resourceMessages({ contents: [{ uri: 'demo://i', mimeType: 'image/png', blob: PNG }] }),
      ),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[resource demo://i, image/png]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
    ]);
  });
});

describe('prompt messages for OpenAI', () => {
  it('Chat Completions: user parts with data-URL images and input_audio; assistant content as text', () => {
    expect(toOpenAIChatMessages(MESSAGES)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe this:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      { role: 'assistant', content: 'A tiny image.\n[image: image/png, 8 bytes, not included]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[resource demo://text/1, text/plain]\nResource 1' },
          { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
        ],
      },
    ]);
  });

  it('Responses: input_text and input_image for the user, output_text for the assistant', () => {
    expect(toOpenAIResponsesInput(MESSAGES)).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Describe this:' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'A tiny image.' },
          { type: 'output_text', text: '[image: image/png, 8 bytes, not included]' },
        ],
      },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '[resource demo://text/1, text/plain]\nResource 1' },
          { type: 'input_text', text: '[audio: audio/wav, 4 bytes, not included]' },
        ],
      },
    ]);
  });
});

describe('prompt messages for Gemini', () => {
  it('gives user and model turns with text and inlineData parts', () => {
    expect(toGeminiContents(MESSAGES)).toEqual([
      {
        role: 'user',
        parts: [{ text: 'Describe this:' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      },
      {
        role: 'model',
        parts: [{ text: 'A tiny image.' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      },
      {
        role: 'user',
        parts: [
          { text: '[resource demo://text/1, text/plain]\nResource 1' },
          { inlineData: { mimeType: 'audio/wav', data: WAV } },
        ],
      },
    ]);
  });

  it('an SVG in a read never reaches the model as an image', () => {
    expect(
      toGeminiContents(
        resourceMessages({ contents: [{ uri: 'demo://s', mimeType: 'image/svg+xml', blob: 'PHN2Zz4=' }] }),
      ),
    ).toEqual([
      {
        role: 'user',
        parts: [{ text: '[resource demo://s, image/svg+xml] (binary, 5 bytes, not included)' }],
      },
    ]);
  });
});
