#!/usr/bin/env node
/**
 * Verifies a Toolgate audit export offline: `node scripts/verify-audit-export.mjs log.ndjson`.
 * Prints `ok: N events, head <seq> <hash>` and exits 0, or names the first broken event and exits 1.
 *
 * Signed heads: an export of a log that signs its head carries the log's public key and its
 * anchored heads in the header; each signature is checked (ES256, WebCrypto's r || s form) and the
 * chain must pass through each head. What makes that worth something is a key or a head kept
 * elsewhere, given on the command line:
 *   --key <file>     the public key (JWK) the host kept: the export's heads must be signed by it
 *   --anchor <file>  heads the host kept (one as JSON, a JSON array, or one per line): the chain
 *                    must pass through each; checked with --key, else the export's key if it is
 *                    the one they name
 * A second line then says what was checked: `anchored: K heads ..., key <id>`.
 *
 * Deliberately standalone (node:crypto and node:fs only), so an auditor can run it without Toolgate
 * or npm. Its canonical JSON and hashing mirror src/protocol/canonical-json.ts and src/audit/chain.ts;
 * a test checks that both verify the same files the same way.
 */
import { createHash, webcrypto } from 'node:crypto';
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

const usage = () => {
  console.error(
    'usage: node scripts/verify-audit-export.mjs <export.ndjson> [--key <jwk.json>] [--anchor <heads.json>]',
  );
  process.exit(2);
};
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (!value) usage();
  args.splice(at, 2);
  return value;
};
const keyFile = option('--key');
const anchorFile = option('--anchor');
const file = args[0];
if (!file || args.length > 1) usage();
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
/** Each verified event's hash by seq, for the signed heads. */
const hashes = new Map();
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
  hashes.set(event.seq, event.hash);
}
const anchored = await checkAnchors(header, previous);
console.log(`ok: ${records.length} events, head ${previous.seq} ${previous.hash}`);
if (anchored.count > 0)
  console.log(
    `anchored: ${anchored.count} heads checked (${anchored.given} given), the chain passes through each; newest event ${anchored.newest}, key ${anchored.keyId}`,
  );

// --- signed heads -------------------------------------------------------------------------------

function base64url(bytes) {
  return Buffer.from(bytes).toString('base64url');
}

/** RFC 7638 thumbprint of an EC public key. */
function thumbprint(jwk) {
  if (
    jwk?.kty !== 'EC' ||
    typeof jwk.crv !== 'string' ||
    typeof jwk.x !== 'string' ||
    typeof jwk.y !== 'string'
  )
    return undefined;
  return base64url(
    createHash('sha256')
      .update(canonical({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
      .digest(),
  );
}

async function signatureHolds(head, jwk) {
  const key = await webcrypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const signed = canonical({ at: head.at, hash: head.hash, keyId: head.keyId, seq: head.seq });
  return webcrypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    Buffer.from(head.signature, 'base64url'),
    Buffer.from(signed, 'utf8'),
  );
}

function readJson(path, what) {
  const content = readFileSync(path, 'utf8');
  try {
    return JSON.parse(content);
  } catch {
    // One head per line (as a host may append them to a file).
    try {
      return content
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line));
    } catch {
      fail(1, `${what} ${path} is not JSON`);
    }
  }
}

async function checkAnchors(header, last) {
  const exported = header.anchorKey;
  const trusted = keyFile ? readJson(keyFile, 'the key file') : undefined;
  const trustedId = trusted ? thumbprint(trusted) : undefined;
  if (trusted && !trustedId) fail(1, `the key in ${keyFile} is not an EC public key (kty, crv, x, y)`);
  const given = anchorFile ? [readJson(anchorFile, 'the anchor file')].flat() : [];
  const summary = { count: 0, given: given.length, newest: 0, keyId: '' };
  const inFile = Array.isArray(header.anchoredHeads) ? header.anchoredHeads : [];
  if (exported !== undefined) {
    if (thumbprint(exported.jwk) !== exported.keyId)
      fail(1, `the export's anchorKey is not the key its id names (${exported.keyId})`);
    if (trustedId && exported.keyId !== trustedId)
      fail(
        1,
        `the export's heads are signed by key ${exported.keyId}, not the trusted key ${trustedId}: the log's key was replaced`,
      );
  } else if (inFile.length > 0)
    fail(1, 'the export carries signed heads but no anchorKey to check them with');
  if (trustedId && !exported && given.length === 0)
    fail(1, 'a key was given but the export carries no signed heads');
  const checks = [
    ...inFile.map((head) => ({ head, from: 'the export' })),
    ...given.map((head) => ({ head, from: anchorFile })),
  ];
  for (const { head, from } of checks) {
    if (
      typeof head !== 'object' ||
      head === null ||
      !Number.isSafeInteger(head.seq) ||
      typeof head.hash !== 'string' ||
      !Number.isFinite(head.at) ||
      typeof head.keyId !== 'string' ||
      typeof head.signature !== 'string'
    )
      fail(1, `a head in ${from} is not a signed head (seq, hash, at, keyId, signature)`);
    const where = `anchored head at event ${head.seq} (${from})`;
    const jwk = trusted ?? (exported && head.keyId === exported.keyId ? exported.jwk : undefined);
    if (!jwk)
      fail(
        1,
        `${where}: signed by key ${head.keyId}, which is not the export's key ${exported?.keyId ?? '(none)'}; give the key you kept with --key`,
      );
    if (thumbprint(jwk) !== head.keyId)
      fail(
        1,
        `${where}: signed by key ${head.keyId}, not by the key it is checked with (${thumbprint(jwk)})`,
      );
    let holds = false;
    try {
      holds = await signatureHolds(head, jwk);
    } catch (error) {
      fail(1, `${where}: its signature cannot be checked (${error.message})`);
    }
    if (!holds)
      fail(1, `${where}: its signature does not verify: the head was altered after signing, or forged`);
    if (head.seq > last.seq)
      fail(1, `${where}: the export ends at event ${last.seq}, before it: events after it were removed`);
    const stored = head.seq === header.anchor.seq ? header.anchor.hash : hashes.get(head.seq);
    if (stored === undefined)
      fail(1, `${where}: the export starts after event ${header.anchor.seq}, so it cannot show this head`);
    if (stored !== head.hash)
      fail(
        1,
        `${where}: event ${head.seq} no longer has the hash that was signed: the chain was rewritten at or before it`,
      );
    summary.count++;
    summary.newest = Math.max(summary.newest, head.seq);
    summary.keyId = head.keyId;
  }
  return summary;
}
