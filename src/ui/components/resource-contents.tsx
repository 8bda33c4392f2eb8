/**
 * A resource's contents, from an embedded resource or read through `resources/read`: text shown as
 * text (never HTML, whatever its type says; a base64 blob of a text type too), images and audio of
 * allow-listed types shown as data URLs, anything else offered as a download that names its type
 * and size. `ReadResourceButton`
 * opens a `resource_link` or re-reads an embedded resource through the server that named it.
 */

import { useSignal } from '@preact/signals';
import type { JsonObject } from '../../protocol/index.js';
import { ALLOWED_AUDIO_TYPES, ALLOWED_IMAGE_TYPES, baseType } from '../safe-media.js';
import { LongText } from './long-text.js';
import { base64Bytes, download, fileName, isBase64 } from './media.js';

export interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** Reads `uri` through the server the content came from. */
export type ResourceReader = (uri: string) => Promise<JsonObject>;

/** The contents of a resources/read result, each checked: server data is untrusted in shape too. */
export function resourceContentsOf(result: unknown): ResourceContent[] | undefined {
  const contents = (result as { contents?: unknown } | null)?.contents;
  if (!Array.isArray(contents)) return undefined;
  return contents
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item) => ({
      uri: typeof item.uri === 'string' ? item.uri : '',
      ...(typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {}),
      ...(typeof item.text === 'string' ? { text: item.text } : {}),
      ...(typeof item.blob === 'string' ? { blob: item.blob } : {}),
    }));
}

export function ResourceContentView({ content }: { content: ResourceContent }) {
  const type = baseType(content.mimeType);
  if (content.text !== undefined) return <LongText text={content.text} />;
  if (!isBase64(content.blob))
    return <p class="tg-notice">No readable content (neither text nor base64 data).</p>;
  const data = content.blob.replace(/\s+/g, '');
  // Text sent as base64 is still text: shown as text, like any other.
  const text = isTextType(type) ? decodeText(data) : undefined;
  if (text !== undefined) return <LongText text={text} />;
  if (ALLOWED_IMAGE_TYPES.has(type))
    return (
      <img class="tg-image" src={`data:${type};base64,${data}`} alt={`Resource ${content.uri} (${type})`} />
    );
  if (ALLOWED_AUDIO_TYPES.has(type))
    return (
      <audio
        class="tg-audio"
        controls
        src={`data:${type};base64,${data}`}
        aria-label={`Resource ${content.uri} (${type})`}
      >
        <track kind="captions" />
      </audio>
    );
  const name = fileName(content.uri);
  return (
    <p class="tg-download">
      {type || 'Untyped'} data, {base64Bytes(data).toLocaleString('en')} bytes.{' '}
      <button type="button" onClick={() => download(data, content.uri)}>
        Download {name}
      </button>
      <span class="tg-muted"> (saved as a file, never opened in the page)</span>
    </p>
  );
}

const isTextType = (type: string) => type.startsWith('text/') || type === 'application/json';

/** UTF-8 text from base64, or undefined when it is not valid base64. */
function decodeText(base64: string): string | undefined {
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  } catch {
    // Not base64 text: the contents are offered as a download instead of shown.
    return undefined;
  }
}

type ReadState =
  | { status: 'idle' }
  | { status: 'reading' }
  | { status: 'read'; contents: ResourceContent[] }
  | { status: 'failed'; error: string };

export function ReadResourceButton({
  uri,
  name,
  read,
  again = false,
}: {
  uri: string;
  /** How the button names the resource (its title, name or URI). */
  name: string;
  read: ResourceReader;
  /** The content is already shown (embedded): the button reads the server's current version. */
  again?: boolean;
}) {
  const state = useSignal<ReadState>({ status: 'idle' });
  const open = async () => {
    state.value = { status: 'reading' };
    try {
      const contents = resourceContentsOf(await read(uri));
      state.value = contents
        ? { status: 'read', contents }
        : { status: 'failed', error: 'The server answered resources/read without a "contents" list.' };
    } catch (error) {
      state.value = { status: 'failed', error: (error as Error).message };
    }
  };
  const current = state.value;
  return (
    <div class="tg-resource-read">
      <div class="tg-row">
        <button type="button" disabled={current.status === 'reading'} onClick={() => void open()}>
          {current.status === 'reading'
            ? 'Reading…'
            : `${again || current.status === 'read' ? 'Read again' : 'Open'}: ${name}`}
        </button>
        {current.status === 'read' && (
          <button
            type="button"
            onClick={() => {
              state.value = { status: 'idle' };
            }}
          >
            Close
          </button>
        )}
      </div>
      <div aria-live="polite">
        {current.status === 'failed' && (
          <p class="tg-error">
            Could not read {uri}: {current.error}
          </p>
        )}
        {current.status === 'read' &&
          (current.contents.length === 0 ? (
            <p class="tg-muted">The server returned no contents for {uri}.</p>
          ) : (
            current.contents.map((content, index) => (
              <section
                key={index}
                class="tg-resource-content"
                aria-label={`Contents of ${content.uri || uri}`}
              >
                <p class="tg-muted tg-wrap">
                  <code>{content.uri || uri}</code>
                  {content.mimeType ? ` · ${content.mimeType}` : ''}
                </p>
                <ResourceContentView content={content} />
              </section>
            ))
          ))}
      </div>
    </div>
  );
}
