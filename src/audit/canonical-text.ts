/**
 * Canonical JSON for the chain, written for speed: exactly the text of canonicalJson
 * (src/protocol/canonical-json.ts, which the offline verifier mirrors) for every JSON value, which a
 * property test holds. Every event is serialized once on append, so this is on the hot path: no
 * set of ancestors (a depth limit catches a cycle instead), no intermediate arrays.
 */

/** Deeper than any record (redaction stops at 64 levels): only a cycle gets here. */
const MAX_DEPTH = 512;

export function canonicalText(value: unknown): string {
  return write(value, 0);
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError('canonical JSON has no representation for NaN or Infinity');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
  if (value === null) return 'null';
  if (depth > MAX_DEPTH) throw new TypeError('canonical JSON cannot encode a cycle');
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      const item: unknown = value[i];
      text += item === undefined ? 'null' : write(item, depth + 1);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) text += ',';
    first = false;
    text += `${JSON.stringify(key)}:${write(member, depth + 1)}`;
  }
  return `${text}}`;
}
