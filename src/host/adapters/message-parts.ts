/**
 * A prompt's messages and a resource's contents, as the model adapters take them: each message's
 * content reduced to parts every model API has a form for (text, an image, audio), consecutive
 * messages of one role merged into one turn (some APIs reject two user turns in a row).
 *
 * What servers send is data, never instructions to Toolgate: an embedded resource's text becomes
 * text under a line naming its URI; an image or audio part is kept only when its MIME type is one
 * the target API takes and its data is well-formed base64, otherwise it is described in words (SVG
 * and anything scriptable never reach a model as an image). Content meant for the user only
 * (`audience: ['user']`) is left out, as it is from tool results.
 */

import {
  base64Bytes,
  type ContentBlock,
  isBase64,
  type PromptMessage,
  type ReadResourceResult,
} from '../../protocol/index.js';

export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'audio'; mimeType: string; data: string };

interface MessageTurn {
  role: 'user' | 'assistant';
  parts: MessagePart[];
}

/** Which media a target API takes, by normalised MIME type (lower case, `image/jpg` as `image/jpeg`). */
interface MediaSupport {
  images: ReadonlySet<string>;
  audio: ReadonlySet<string>;
}

/** A read's contents as user messages (one embedded resource each), for the same adapters. */
export function resourceMessages(read: Pick<ReadResourceResult, 'contents'>): PromptMessage[] {
  return read.contents.map((item) => ({
    role: 'user',
    content: {
      type: 'resource',
      resource: {
        uri: item.uri,
        ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
        ...('text' in item && typeof item.text === 'string' ? { text: item.text } : {}),
        ...('blob' in item && typeof item.blob === 'string' ? { blob: item.blob } : {}),
      },
    },
  }));
}

/**
 * The messages as turns of parts the API supports; nothing else is ever dropped silently.
 * `assistantMedia`: what the API takes in assistant turns, when less than in user turns.
 */
export function messageTurns(
  messages: readonly PromptMessage[],
  media: MediaSupport,
  assistantMedia: MediaSupport = media,
): MessageTurn[] {
  const turns: MessageTurn[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const parts = partsOf(message.content, role === 'assistant' ? assistantMedia : media);
    if (parts.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  }
  return turns;
}

/** The normalised MIME type, or undefined when it is not a plain `type/subtype`. */
function normalMime(mimeType: unknown): string | undefined {
  if (typeof mimeType !== 'string') return undefined;
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return undefined;
  return type === 'image/jpg' ? 'image/jpeg' : type;
}

/** Base64 data as a `data:` URL, for APIs that take images by URL. */
export function dataUrl(part: { mimeType: string; data: string }): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

function partsOf(block: ContentBlock, media: MediaSupport): MessagePart[] {
  const audience = block.annotations?.audience;
  if (Array.isArray(audience) && !audience.includes('assistant')) return [];
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' && block.text ? [{ kind: 'text', text: block.text }] : [];
    case 'image':
      return [mediaPart(block.mimeType, block.data, 'image', media.images)];
    case 'audio':
      return [mediaPart(block.mimeType, block.data, 'audio', media.audio)];
    case 'resource_link':
      return [
        {
          kind: 'text',
          text: `[resource link: ${block.title ?? block.name} <${block.uri}>${block.mimeType ? `, ${block.mimeType}` : ''}]`,
        },
      ];
    case 'resource': {
      const { uri, mimeType, text, blob } = block.resource;
      const header = `[resource ${uri}${mimeType ? `, ${mimeType}` : ''}]`;
      if (typeof text === 'string') return [{ kind: 'text', text: `${header}\n${text}` }];
      if (typeof blob !== 'string') return [{ kind: 'text', text: `${header} (no contents)` }];
      const type = normalMime(mimeType);
      if (type?.startsWith('image/') && media.images.has(type) && isBase64(blob))
        return [
          { kind: 'text', text: header },
          { kind: 'image', mimeType: type, data: blob },
        ];
      if (type?.startsWith('audio/') && media.audio.has(type) && isBase64(blob))
        return [
          { kind: 'text', text: header },
          { kind: 'audio', mimeType: type, data: blob },
        ];
      return [{ kind: 'text', text: `${header} (binary, ${bytesOf(blob)} bytes, not included)` }];
    }
    default:
      return [{ kind: 'text', text: `[content of type ${String((block as { type?: unknown }).type)}]` }];
  }
}

function mediaPart(
  mimeType: unknown,
  data: unknown,
  kind: 'image' | 'audio',
  accepted: ReadonlySet<string>,
): MessagePart {
  const type = normalMime(mimeType);
  if (type && accepted.has(type) && isBase64(data)) return { kind, mimeType: type, data: data as string };
  const size = isBase64(data) ? `, ${base64Bytes(data)} bytes` : '';
  return {
    kind: 'text',
    text: `[${kind}: ${typeof mimeType === 'string' ? mimeType : 'unknown type'}${size}, not included]`,
  };
}

function bytesOf(base64: string): number {
  return isBase64(base64) ? base64Bytes(base64) : 0;
}
