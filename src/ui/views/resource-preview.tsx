/**
 * What a read returned, each content shown by its kind: JSON as a tree, other text as text (HTML and
 * SVG included: never markup), images and audio only of the safe-media allow-list as data URLs,
 * any other blob as a download (resource-contents.tsx).
 */

import type { ReadResourceResult } from '../../protocol/index.js';
import { JsonTree } from '../components/json-tree.js';
import { download, fileName, isBase64 } from '../components/media.js';
import {
  type ResourceContent,
  ResourceContentView,
  resourceContentsOf,
} from '../components/resource-contents.js';
import { ALLOWED_AUDIO_TYPES, ALLOWED_IMAGE_TYPES, baseType } from '../safe-media.js';

/** JSON text at most this long is parsed into a tree; longer stays text. */
const TREE_LIMIT = 1_000_000;

function jsonOf(content: ResourceContent): { value: unknown } | undefined {
  const type = baseType(content.mimeType);
  if (content.text === undefined || content.text.length > TREE_LIMIT) return undefined;
  if (type !== 'application/json' && !type.endsWith('+json')) return undefined;
  try {
    return { value: JSON.parse(content.text) };
  } catch {
    // Not JSON after all: shown as the text it is.
    return undefined;
  }
}

/**
 * A blob the page shows (decoded text, an allowed image or audio) may still be wanted as the file it
 * is; other blobs are already offered only as a download.
 */
function shownInPage(content: ResourceContent): boolean {
  if (!isBase64(content.blob)) return false;
  const type = baseType(content.mimeType);
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    ALLOWED_IMAGE_TYPES.has(type) ||
    ALLOWED_AUDIO_TYPES.has(type)
  );
}

export function ResourcePreview({ result, uri }: { result: ReadResourceResult; uri: string }) {
  const contents = resourceContentsOf(result) ?? [];
  if (contents.length === 0) return <p class="tg-muted">The server returned no contents for {uri}.</p>;
  return (
    <>
      {contents.map((content, index) => {
        const json = jsonOf(content);
        return (
          <section key={index} class="tg-resource-content" aria-label={`Contents of ${content.uri || uri}`}>
            <p class="tg-muted tg-wrap">
              <code>{content.uri || uri}</code>
              {content.mimeType ? ` · ${content.mimeType}` : ''}
              {content.blob !== undefined ? ' · binary' : ' · text'}
            </p>
            {json ? (
              <JsonTree value={json.value} path="contents" />
            ) : (
              <ResourceContentView content={content} />
            )}
            {shownInPage(content) && (
              <button type="button" onClick={() => download(content.blob!, content.uri || uri)}>
                Download {fileName(content.uri || uri)}
              </button>
            )}
          </section>
        );
      })}
    </>
  );
}
