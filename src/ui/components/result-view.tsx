/**
 * A tool result, every content type, rendered so that nothing a server sends can run in the page:
 * text as text (never HTML), images and audio only as data URLs of allow-listed types, links opened
 * only for http(s) with noopener/noreferrer, embedded blobs downloadable but never rendered,
 * structured content as a tree with the outputSchema verdict, and content annotations respected.
 * Server data is untrusted in shape as well as content, so every field is checked before use.
 */

import type { ValidationReport } from '../../gate/index.js';
import type { CallToolResult, ContentBlock, EmbeddedResource, ResourceLink } from '../../protocol/index.js';
import { ALLOWED_AUDIO_TYPES, ALLOWED_IMAGE_TYPES, baseType } from '../safe-media.js';
import { JsonTree } from './json-tree.js';
import { LongText } from './long-text.js';
import { isBase64, safeHttpUrl } from './media.js';
import { ReadResourceButton, ResourceContentView, type ResourceReader } from './resource-contents.js';

type Audience = 'user' | 'assistant';

export function ResultView({
  result,
  outputValidation,
  audience = 'user',
  source,
  readResource,
}: {
  result: CallToolResult;
  outputValidation?: ValidationReport;
  /** Who is looking: blocks annotated for the other audience only are collapsed, not hidden. */
  audience?: Audience;
  /** The server (as the panel labels it) and tool the result came from, for messages. */
  source?: { server: string; tool: string };
  /** Reads a linked or embedded resource through the server that sent it (resources/read). */
  readResource?: ResourceReader;
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
        const view = <Block block={block} read={readResource} />;
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
          <JsonTree value={result.structuredContent} path="structuredContent" />
        </section>
      )}
    </div>
  );
}

/** Text parsed as JSON at most this long: a bigger body is shown as sent rather than parsed on render. */
const PRETTY_LIMIT = 1_000_000;

/**
 * JSON sent as text (an object or an array, as tools often answer) indented by two spaces, so it
 * reads as a structure rather than one long line; any other text exactly as sent. Only whitespace
 * may change: JSON whose parse would alter what is shown (a number beyond double precision, `1.0`,
 * an escaped character) is left as sent.
 */
export function prettyJson(text: string): string {
  const start = text.trimStart()[0];
  if ((start !== '{' && start !== '[') || text.length > PRETTY_LIMIT) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(parsed) === withoutWhitespace(text) ? JSON.stringify(parsed, null, 2) : text;
}

/** JSON text without the whitespace between its tokens (strings kept as they are). */
function withoutWhitespace(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json[i] as string;
    if (inString) {
      out += char;
      if (char === '\\') out += json[++i] ?? '';
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') out += char;
  }
  return out;
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

function Block({ block, read }: { block: ContentBlock; read: ResourceReader | undefined }) {
  switch (block.type) {
    case 'text':
      return <LongText text={prettyJson(String(block.text ?? ''))} />;
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
      return <Link block={block} read={read} />;
    case 'resource':
      return <Embedded block={block} read={read} />;
    default:
      return <p class="tg-notice">Content of type {String((block as { type?: unknown }).type)} not shown.</p>;
  }
}

function Link({ block, read }: { block: ResourceLink; read: ResourceReader | undefined }) {
  const uri = String(block.uri ?? '');
  const url = safeHttpUrl(uri);
  const name = String(block.title || block.name || uri);
  return (
    <div class="tg-resource-link">
      <p>
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
            <span class="tg-muted">
              {read
                ? '(not a web address: open it through the server)'
                : '(not opened: only http(s) links are)'}
            </span>
          </>
        )}
        {typeof block.mimeType === 'string' && <span class="tg-muted"> · {block.mimeType}</span>}
        {typeof block.description === 'string' && <span class="tg-muted"> · {block.description}</span>}
      </p>
      {read && uri && <ReadResourceButton uri={uri} name={name} read={read} />}
    </div>
  );
}

function Embedded({ block, read }: { block: EmbeddedResource; read: ResourceReader | undefined }) {
  const resource: Partial<EmbeddedResource['resource']> =
    typeof block.resource === 'object' && block.resource !== null ? block.resource : {};
  const uri = String(resource.uri ?? '');
  return (
    <div class="tg-embedded">
      <p class="tg-muted tg-wrap">
        Embedded resource <code>{uri}</code>
        {typeof resource.mimeType === 'string' ? ` · ${resource.mimeType}` : ''}
      </p>
      <ResourceContentView
        content={{
          uri,
          ...(typeof resource.mimeType === 'string' ? { mimeType: resource.mimeType } : {}),
          ...(typeof resource.text === 'string' ? { text: resource.text } : {}),
          ...(typeof resource.blob === 'string' ? { blob: resource.blob } : {}),
        }}
      />
      {read && uri && <ReadResourceButton uri={uri} name={uri} read={read} again />}
    </div>
  );
}
