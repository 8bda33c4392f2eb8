/**
 * A prompt's messages (and a resource's contents, through resourceMessages) as Anthropic Messages
 * API `messages`: text blocks and base64 image blocks; audio, which the API does not take, is
 * described in words.
 */

import type { PromptMessage } from '../../protocol/index.js';
import { messageTurns } from './message-parts.js';

export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

const MEDIA = {
  images: new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
  audio: new Set<string>(),
};

/** Messages API `messages`, consecutive turns of one role merged. */
export function toAnthropicMessages(messages: readonly PromptMessage[]): AnthropicMessage[] {
  return messageTurns(messages, MEDIA).map(({ role, parts }) => ({
    role,
    content: parts.map(
      (part): AnthropicContentBlock =>
        part.kind === 'image'
          ? { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } }
          : // Audio never passes MEDIA, so only text is left.
            { type: 'text', text: part.kind === 'text' ? part.text : '' },
    ),
  }));
}
