import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex, type Tool } from '../protocol/index.js';
import { createToolPins, definitionOf, hashDefinition, pinTool, sha256HexSync } from './pins.js';

function readFile(): Tool {
  return {
    name: 'read_file',
    title: 'Read file',
    description: 'Reads a file and returns its text.',
    icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Absolute path' },
        limit: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { title: 'Read a file', readOnlyHint: true, openWorldHint: false },
    execution: { taskSupport: 'optional' },
    _meta: { 'example.com/trace': 'abc' },
    vendorExtension: { x: 1 },
  };
}

describe('definitionOf', () => {
  it('keeps exactly the pinned fields, annotations.title included', () => {
    expect(definitionOf(readFile())).toEqual({
      name: 'read_file',
      title: 'Read file',
      description: 'Reads a file and returns its text.',
      inputSchema: readFile().inputSchema,
      outputSchema: readFile().outputSchema,
      annotations: { title: 'Read a file', readOnlyHint: true, openWorldHint: false },
    });
  });

  it('omits absent and undefined fields instead of writing them as null', () => {
    // Tool says title is a string or absent; an object built in code may still hold undefined.
    const built = { name: 'ping', inputSchema: { type: 'object' }, title: undefined } as unknown as Tool;
    const definition = definitionOf(built);
    expect(Object.keys(definition)).toEqual(['name', 'inputSchema']);
  });
});

describe('hashDefinition', () => {
  it('is sha256: + SHA-256 (WebCrypto) of the canonical JSON of the pinned fields', async () => {
    const tool = readFile();
    const expected = `sha256:${await sha256Hex(canonicalJson(definitionOf(tool)))}`;
    expect(await hashDefinition(tool)).toBe(expected);
    expect(expected).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('does not depend on key order at any depth', async () => {
    const tool = readFile();
    const reordered: Tool = {
      annotations: { openWorldHint: false, readOnlyHint: true, title: 'Read a file' },
      outputSchema: { properties: { text: { type: 'string' } }, type: 'object' },
      inputSchema: {
        required: ['path'],
        properties: {
          limit: { minimum: 1, type: 'integer' },
          path: { description: 'Absolute path', type: 'string' },
        },
        type: 'object',
      },
      description: tool.description!,
      title: tool.title!,
      name: tool.name,
    };
    expect(await hashDefinition(reordered)).toBe(await hashDefinition(tool));
  });

  const changes: [string, (tool: Tool) => void][] = [
    ['name', (tool) => (tool.name = 'read_files')],
    ['title', (tool) => (tool.title = 'Read a file')],
    ['description', (tool) => (tool.description = `${tool.description} `)],
    [
      'an input property type',
      (tool) => ((tool.inputSchema.properties as Record<string, { type: string }>).path!.type = 'array'),
    ],
    [
      'an input property description',
      (tool) =>
        ((tool.inputSchema.properties as Record<string, { description?: string }>).path!.description =
          'Path'),
    ],
    ['required', (tool) => (tool.inputSchema.required = ['path', 'limit'])],
    ['outputSchema', (tool) => (tool.outputSchema = { type: 'object' })],
    ['outputSchema removed', (tool) => delete tool.outputSchema],
    ['annotations.title', (tool) => (tool.annotations!.title = 'Read any file')],
    ['annotations.destructiveHint', (tool) => (tool.annotations!.destructiveHint = false)],
    ['an unknown annotation', (tool) => (tool.annotations!['example.com/risk'] = 'high')],
    ['annotations removed', (tool) => delete tool.annotations],
  ];
  it.each(changes)('changes when %s changes', async (_label, change) => {
    const tool = readFile();
    change(tool);
    expect(await hashDefinition(tool)).not.toBe(await hashDefinition(readFile()));
  });

  // Not pinned (see pins.ts): _meta is bookkeeping servers rewrite freely, icons are display-only and
  // never reach the model, execution says how the client runs the call, and unknown top-level fields
  // are no revision's definition. The issue names the pinned fields explicitly.
  const ignored: [string, (tool: Tool) => void][] = [
    ['_meta', (tool) => (tool._meta = { 'example.com/trace': 'def' })],
    ['icons', (tool) => (tool.icons = [])],
    ['execution', (tool) => (tool.execution = { taskSupport: 'required' })],
    ['an unknown top-level field', (tool) => (tool.vendorExtension = { x: 2 })],
  ];
  it.each(ignored)('stays when %s changes', async (_label, change) => {
    const tool = readFile();
    change(tool);
    expect(await hashDefinition(tool)).toBe(await hashDefinition(readFile()));
  });
});

describe('sha256HexSync', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexSync('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexSync('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with WebCrypto around block boundaries, on multi-byte text and beyond its shared buffer', async () => {
    const inputs: string[] = [];
    for (let length = 0; length <= 130; length++) inputs.push('a'.repeat(length));
    for (let length = 0; length <= 40; length++) inputs.push('é👩\u200d💻中'.repeat(length));
    inputs.push('\ud800 lone surrogate', 'x'.repeat(70_000), '葛'.repeat(30_000));
    for (const input of inputs)
      expect(sha256HexSync(input), `length ${input.length}`).toBe(await sha256Hex(input));
  });
});

describe('pins', () => {
  it('pinTool carries the server, the tool and its hash', async () => {
    const tool = readFile();
    expect(await pinTool('files', tool)).toEqual({
      serverId: 'files',
      tool,
      definitionHash: await hashDefinition(tool),
    });
  });

  it('a connection pins a listing without hashing it, and hashes a tool when its hash is read', () => {
    const pins = createToolPins('files');
    const cyclic = readFile();
    cyclic.inputSchema.self = cyclic.inputSchema; // canonical JSON throws on it: proof of laziness
    const [good, bad] = pins.pinAll([readFile(), cyclic]);
    expect(bad!.serverId).toBe('files');
    expect(() => bad!.definitionHash).toThrow('cycle');
    expect(good!.definitionHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes each tool object once: a later mutation does not change its hash, a new object is hashed anew', async () => {
    const pins = createToolPins('files');
    const tool = readFile();
    const first = pins.hashOf(tool);
    tool.description = 'Exfiltrates your files.';
    expect(pins.hashOf(tool)).toBe(first);
    expect(pins.pin(tool).definitionHash).toBe(first);
    const relisted = { ...tool };
    expect(pins.hashOf(relisted)).toBe(await hashDefinition(relisted));
    expect(pins.hashOf(relisted)).not.toBe(first);
  });

  it('a lazy pin still reads as plain data (spread, JSON, structuredClone)', async () => {
    const tool = readFile();
    const pin = createToolPins('files').pin(tool);
    const hash = await hashDefinition(tool);
    expect({ ...pin }.definitionHash).toBe(hash);
    expect(JSON.parse(JSON.stringify(pin)).definitionHash).toBe(hash);
    expect(structuredClone(pin).definitionHash).toBe(hash);
  });
});
