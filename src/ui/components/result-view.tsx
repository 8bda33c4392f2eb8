/**
 * A tool result, every content type, rendered so that nothing a server sends can run in the page:
 * text as text (never HTML), images and audio only as data URLs of allow-listed types, links opened
 * only for http(s) with noopener/noreferrer, embedded blobs downloadable but never rendered,
 * structured content as a tree with the outputSchema verdict, and content annotations respected.
 * Server data is untrusted in shape as well as content, so every field is checked before use.
 */

import type { ValidationReport } from '../../gate/types.js';
import type { CallToolResult, ContentBlock, EmbeddedResource, ResourceLink } from '../../protocol/types.js';
import { JsonTree } from './json-tree.js';
import { LongText } from './long-text.js';

/** Raster types only: SVG can carry script and external references. */
export const ALLOWED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);

export const ALLOWED_AUDIO_TYPES: ReadonlySet<string> = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
]);

/** The URL when it is http(s); anything else (javascript:, data:, file:, custom schemes) is not opened. */
export function safeHttpUrl(uri: string): URL | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

type Audience = 'user' | 'assistant';

export function ResultView({
  result,
  outputValidation,
  audience = 'user',
  source,
}: {
  result: CallToolResult;
  outputValidation?: ValidationReport;
  /** Who is looking: blocks annotated for the other audience only are collapsed, not hidden. */
  audience?: Audience;
  /** The server (as the panel labels it) and tool the result came from, for messages. */
  source?: { server: string; tool: string };
}) {
  const content: unknown[] = Array.isArray(result.content) ? result.content : [];
  const blocks = content
    .filter((block): block is ContentBlock => typeof block === 'object' && block !== null)
    .map((block, index) => ({ block, index, priority: priorityOf(block) }))
    // Array.prototype.sort is stable, and the index tie-break keeps the server's order explicit.
    .sort((a, b) => b.priority - a.priority || a.index - b.index);
  const hasStructured = result.structuredContent !== undefined;
  return (
    <div class={result.isError === true ? 'tg-result tg-tool-error' : 'tg-result'}>
      {result.isError === true && (
        <h4 class="tg-error">
          {blocks.length === 0 && !hasStructured
            ? `${source ? `${source.tool} on ${source.server}` : 'The tool'} reported an error without details.`
            : 'The tool reported an error'}
        </h4>
      )}
      {blocks.length === 0 && !hasStructured && result.isError !== true && (
        <p class="tg-muted">The tool returned no content.</p>
      )}
      {blocks.map(({ block, index }) => {
        const view = <Block block={block} />;
        const meantFor = block.annotations?.audience;
        if (Array.isArray(meantFor) && !meantFor.includes(audience)) {
          return (
            <details key={index} class="tg-block tg-for-other">
              <summary>{audience === 'user' ? 'Content for the model' : 'Content for the person'}</summary>
              {view}
            </details>
          );
        }
        return (
          <div key={index} class="tg-block">
            {view}
          </div>
        );
      })}
      {hasStructured && (
        <section class="tg-structured">
          <h4>Structured content</h4>
          <Verdict report={outputValidation} />
          <JsonTree value={result.structuredContent} />
        </section>
      )}
    </div>
  );
}

/** Priority runs 0..1; a block without one sits in the middle rather than above "least important". */
function priorityOf(block: ContentBlock): number {
  const priority = block.annotations?.priority;
  return typeof priority === 'number' && Number.isFinite(priority) ? priority : 0.5;
}

function Verdict({ report }: { report: ValidationReport | undefined }) {
  if (!report) return <p class="tg-muted">Not checked: no output schema verdict.</p>;
  if (report.status === 'valid') return <p class="tg-ok">Structured content matches the output schema.</p>;
  if (report.status === 'skipped')
    return <p class="tg-warning">Not checked against the output schema: {report.reason}</p>;
  return (
    <div class="tg-error">
      <p>Structured content does not match the output schema:</p>
      <ul class="tg-issues">
        {report.issues.map((issue, index) => (
          <li key={index}>
            <code>{issue.path}</code>: {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The media type without parameters, lower-cased, so the allow-list check cannot be sidestepped. */
function baseType(mimeType: unknown): string {
  return typeof mimeType === 'string' ? (mimeType.split(';')[0] ?? '').trim().toLowerCase() : '';
}

/** Base64 alphabet only: nothing that could end the data URL early or smuggle in another part. */
function isBase64(data: unknown): data is string {
  return (
    typeof data === 'string' && data.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data.replace(/\s+/g, ''))
  );
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <LongText text={String(block.text ?? '')} />;
    case 'image': {
      const type = baseType(block.mimeType);
      // The data URL is built from our own allow-listed type string, never the server's.
      return ALLOWED_IMAGE_TYPES.has(type) && isBase64(block.data) ? (
        <img
          class="tg-image"
          src={`data:${type};base64,${block.data.replace(/\s+/g, '')}`}
          alt={`Tool result (${type})`}
        />
      ) : (
        <p class="tg-notice">Image of type {type || 'unknown'} not shown.</p>
      );
    }
    case 'audio': {
      const type = baseType(block.mimeType);
      return ALLOWED_AUDIO_TYPES.has(type) && isBase64(block.data) ? (
        <audio
          class="tg-audio"
          controls
          src={`data:${type};base64,${block.data.replace(/\s+/g, '')}`}
          aria-label={`Audio from the tool (${type})`}
        >
          <track kind="captions" />
        </audio>
      ) : (
        <p class="tg-notice">Audio of type {type || 'unknown'} not played.</p>
      );
    }
    case 'resource_link':
      return <Link block={block} />;
    case 'resource':
      return <Embedded block={block} />;
    default:
      return <p class="tg-notice">Content of type {String((block as { type?: unknown }).type)} not shown.</p>;
  }
}

function Link({ block }: { block: ResourceLink }) {
  const uri = String(block.uri ?? '');
  const url = safeHttpUrl(uri);
  const name = String(block.title || block.name || uri);
  return (
    <p class="tg-resource-link">
      {url ? (
        <>
          <a href={url.href} target="_blank" rel="noopener noreferrer">
            {name}
          </a>{' '}
          {/* The host is shown because link text is the server's to choose and may mislead. */}
          <span class="tg-muted">({url.host})</span>
        </>
      ) : (
        <>
          {name !== uri && <span>{name} </span>}
          <code class="tg-inert-uri">{uri}</code>{' '}
          <span class="tg-muted">(not opened: only http(s) links are)</span>
        </>
      )}
      {typeof block.mimeType === 'string' && <span class="tg-muted"> · {block.mimeType}</span>}
      {typeof block.description === 'string' && <span class="tg-muted"> · {block.description}</span>}
    </p>
  );
}

function Embedded({ block }: { block: EmbeddedResource }) {
  const resource: Partial<EmbeddedResource['resource']> =
    typeof block.resource === 'object' && block.resource !== null ? block.resource : {};
  const uri = String(resource.uri ?? '');
  const header = (
    <p class="tg-muted">
      Embedded resource <code>{uri}</code>
      {typeof resource.mimeType === 'string' ? ` · ${resource.mimeType}` : ''}
    </p>
  );
  if (typeof resource.text === 'string') {
    return (
      <div class="tg-embedded">
        {header}
        <LongText text={resource.text} />
      </div>
    );
  }
  if (!isBase64(resource.blob)) {
    return (
      <div class="tg-embedded">
        {header}
        <p class="tg-notice">No readable content (neither text nor base64 data).</p>
      </div>
    );
  }
  const blob = resource.blob.replace(/\s+/g, '');
  const bytes = Math.floor((blob.length * 3) / 4) - (blob.match(/=+$/)?.[0].length ?? 0);
  return (
    <div class="tg-embedded">
      {header}
      <p>
        Binary data, {bytes} bytes.{' '}
        <button type="button" onClick={() => download(blob, uri)}>
          Download
        </button>
      </p>
    </div>
  );
}

/**
 * Saves the bytes as application/octet-stream through an object URL made on click: a blob may be
 * HTML or script, and typed that way the browser only ever downloads it, never renders it.
 */
function download(base64: string, uri: string): void {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return;
  }
  const data = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
  const href = URL.createObjectURL(new Blob([data], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName(uri);
  link.rel = 'noopener';
  link.click();
  // The download has started by now; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}

/** The URI's last path segment, stripped of characters file systems dislike. */
function fileName(uri: string): string {
  const last = uri.split(/[/\\]/).pop() ?? '';
  const clean = last.replace(/[?#].*$/, '').replace(/[^\w.-]+/g, '_');
  return clean.replace(/^\.+/, '') || 'resource.bin';
}
