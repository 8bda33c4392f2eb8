/**
 * A prompt's messages (and a resource's contents, through resourceMessages) as Gemini `contents`:
 * roles `user` and `model`, text parts and `inlineData` parts for the image and audio types Gemini
 * takes. Gemini takes inline media in model turns too, so both roles keep them.
 */

import type { PromptMessage } from '../../protocol/index.js';
import { messageTurns } from './message-parts.js';

export type GeminiPart = { text: string } | { inlineData: { mimeType: string; data: string } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

const MEDIA = {
  images: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']),
  audio: new Set([
    'audio/wav',
    'audio/mp3',
    'audio/mpeg',
    'audio/aiff',
    'audio/aac',
    'audio/ogg',
    'audio/flac',
  ]),
};

/** `contents` for generateContent, consecutive turns of one role merged. */
export function toGeminiContents(messages: readonly PromptMessage[]): GeminiContent[] {
  return messageTurns(messages, MEDIA).map(({ role, parts }) => ({
    role: role === 'assistant' ? 'model' : 'user',
    parts: parts.map(
      (part): GeminiPart =>
        part.kind === 'text'
          ? { text: part.text }
          : { inlineData: { mimeType: part.mimeType, data: part.data } },
    ),
  }));
}
