/**
 * A past call made ready for its tool's form: the arguments as shown (redacted, as the audit log
 * stores them) with every value that holds a redaction marker taken out, and the paths of what was
 * taken out, so the person fills those in. A secret is never restored from anywhere: what the log
 * hid stays hidden, and a marker is never sent to a server as if it were the value.
 */

import { type JsonObject, redactSecrets } from '../protocol/index.js';

/** Any marker Toolgate writes (`[redacted: …]`, or `***` in a URL). */
const MARKER = /\[redacted(?::[^\]\r\n]*)?\]|\*\*\*/;

interface RerunDraft {
  /** What the form starts with. */
  draft: JsonObject;
  /** Where a hidden value was left out (`api_key`, `headers[0].value`): the person fills these. */
  toFill: string[];
}

/** The draft for running `args` again; redacts first, so unredacted arguments (Activity's) are safe too. */
export function rerunDraft(args: JsonObject): RerunDraft {
  const toFill: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') {
      if (!MARKER.test(node)) return node;
      toFill.push(path || '(root)');
      return undefined;
    }
    if (Array.isArray(node))
      // An item cannot be left out without moving the ones after it: it is emptied instead.
      return node.map((item, index) => walk(item, `${path}[${index}]`) ?? '');
    if (node && typeof node === 'object') {
      const copy: JsonObject = {};
      for (const [key, value] of Object.entries(node)) {
        const kept = walk(value, path ? `${path}.${key}` : key);
        if (kept !== undefined) copy[key] = kept;
      }
      return copy;
    }
    return node;
  };
  const draft = walk(redactSecrets(args).value, '') as JsonObject;
  return { draft, toFill };
}
