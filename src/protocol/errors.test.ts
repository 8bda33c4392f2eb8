import { describe, expect, it } from 'vitest';
import { nameSubject } from './errors.js';

describe('nameSubject: a transport failure names the server and the tool once', () => {
  it('puts the server and the tool in front of a message that names neither', () => {
    const error = nameSubject(new Error('response too large (17 MB, limit 16 MB)'), 'tools/call', {
      server: 'files',
      tool: 'read',
    });
    expect(error.message).toBe(
      "Server 'files', tools/call for tool 'read': response too large (17 MB, limit 16 MB)",
    );
  });

  it('leaves a message that already names both as it is, and keeps the error object', () => {
    const original = new Error("Server 'files' did not answer tools/call for tool 'read'");
    expect(nameSubject(original, 'tools/call', { server: 'files', tool: 'read' })).toBe(original);
    expect(original.message).toBe("Server 'files' did not answer tools/call for tool 'read'");
  });

  it('adds the tool when only the server was named', () => {
    const error = nameSubject(new Error("the stream of 'files' ended"), 'tools/call', {
      server: 'files',
      tool: 'read',
    });
    expect(error.message).toContain("for tool 'read'");
  });
});
