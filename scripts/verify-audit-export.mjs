#!/usr/bin/env node
/**
 * Verifies a Toolgate audit export offline: `node scripts/verify-audit-export.mjs log.ndjson`.
 * Prints `ok: N events, head <seq> <hash>` and exits 0, or names the first broken event and exits 1.
 *
 * Deliberately standalone (node:crypto and node:fs only), so an auditor can run it without Toolgate
 * or npm. Its canonical JSON and hashing mirror src/protocol/canonical-json.ts and src/audit/chain.ts;
 * a test checks that both verify the same files the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

function canonical(value) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('not a finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`cannot encode a ${typeof value}`);
}

const hashOf = ({ seq, invocationId, kind, at, body, prevHash }) =>
  `sha256:${createHash('sha256').update(canonical({ seq, invocationId, kind, at, body, prevHash }), 'utf8').digest('hex')}`;

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/verify-audit-export.mjs <export.ndjson>');
  process.exit(2);
}
const text = readFileSync(file, 'utf8');
const fail = (line, message) => {
  console.log(`broken at line ${line}: ${message}`);
  process.exit(1);
};
// Two forms: NDJSON (a header line, then one event per line) and JSON (the header's fields plus an
// `events` array). In the JSON form "line" below means the event's position, counting the header as 1.
let header;
let records;
const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n')).trimEnd();
if (firstLine.endsWith('[')) {
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    fail(1, `not valid JSON (${error.message})`);
  }
  const { events, ...rest } = document;
  header = rest;
  if (!Array.isArray(events)) fail(1, 'the JSON export has no events array');
  records = events.map((event) => () => event);
} else {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    fail(1, 'not a Toolgate audit export (no JSON header)');
  }
  records = lines.slice(1).map((line) => () => JSON.parse(line));
}
if (header?.format !== 'toolgate-audit-export' || header.version !== 1)
  fail(1, 'not a Toolgate audit export, version 1');
let previous = header.anchor;
for (let i = 1; i <= records.length; i++) {
  let event;
  try {
    event = records[i - 1]();
  } catch {
    fail(i + 1, 'not JSON');
  }
  const where = `event ${event.seq} (invocation ${event.invocationId})`;
  if (event.seq !== previous.seq + 1)
    fail(i + 1, `${where}: expected event ${previous.seq + 1}; events are missing or reordered`);
  if (event.prevHash !== previous.hash)
    fail(i + 1, `${where}: its link to the previous event does not match`);
  let expected;
  try {
    expected = hashOf(event);
  } catch (error) {
    fail(i + 1, `${where}: cannot be hashed (${error.message})`);
  }
  if (expected !== event.hash) fail(i + 1, `${where}: its content does not match its hash`);
  previous = { seq: event.seq, hash: event.hash };
}
console.log(`ok: ${records.length} events, head ${previous.seq} ${previous.hash}`);
