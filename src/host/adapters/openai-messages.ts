/**
 * A prompt's messages (and a resource's contents, through resourceMessages) in both OpenAI APIs:
 * Chat Completions messages (user content parts with `image_url` data URLs and `input_audio` for
 * WAV and MP3; assistant content as text, which is all it takes) and Responses input messages
 * (`input_text` / `input_image`; assistant turns as `output_text`).
 */

import type { PromptMessage } from '../../protocol/index.js';
import { dataUrl, type MessagePart, messageTurns } from './message-parts.js';

export type OpenAIChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } };

export type OpenAIChatMessage =
  | { role: 'user'; content: OpenAIChatContentPart[] }
  | { role: 'assistant'; content: string };

export type OpenAIResponsesContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'output_text'; text: string };

export interface OpenAIResponsesMessage {
  type: 'message';
  role: 'user' | 'assistant';
  content: OpenAIResponsesContentPart[];
}

const IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};
const CHAT_MEDIA = { images: IMAGES, audio: new Set(Object.keys(AUDIO_FORMATS)) };
/** Assistant turns are text in both APIs, and Responses takes no audio input parts. */
const TEXT_ONLY = { images: new Set<string>(), audio: new Set<string>() };
const RESPONSES_MEDIA = { images: IMAGES, audio: new Set<string>() };

/** Chat Completions `messages`, consecutive turns of one role merged. */
export function toOpenAIChatMessages(messages: readonly PromptMessage[]): OpenAIChatMessage[] {
  return messageTurns(messages, CHAT_MEDIA, TEXT_ONLY).map(({ role, parts }): OpenAIChatMessage => {
    if (role === 'assistant') return { role, content: parts.map(textOf).join('\n') };
    return {
      role,
      content: parts.map((part): OpenAIChatContentPart => {
        if (part.kind === 'image') return { type: 'image_url', image_url: { url: dataUrl(part) } };
        if (part.kind === 'audio')
          return {
            type: 'input_audio',
            input_audio: { data: part.data, format: AUDIO_FORMATS[part.mimeType] ?? 'wav' },
          };
        return { type: 'text', text: part.text };
      }),
    };
  });
}

/** Responses `input` message items, consecutive turns of one role merged. */
export function toOpenAIResponsesInput(messages: readonly PromptMessage[]): OpenAIResponsesMessage[] {
  return messageTurns(messages, RESPONSES_MEDIA, TEXT_ONLY).map(({ role, parts }) => ({
    type: 'message',
    role,
    content: parts.map((part): OpenAIResponsesContentPart => {
      if (role === 'assistant') return { type: 'output_text', text: textOf(part) };
      if (part.kind === 'image') return { type: 'input_image', image_url: dataUrl(part), detail: 'auto' };
      return { type: 'input_text', text: textOf(part) };
    }),
  }));
}

/** Assistant turns hold only text parts (TEXT_ONLY), user turns' media have their own forms. */
function textOf(part: MessagePart): string {
  return part.kind === 'text' ? part.text : '';
}
