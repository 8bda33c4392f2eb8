import { describe, expect, it } from 'vitest';
import { serverIdsNamed, serverNames } from './server-names.js';

const servers = [
  { id: 'a.example/mcp', label: 'Demo' },
  { id: 'b.example/mcp', label: 'Demo' },
  { id: 'tools', label: 'Tools' },
  { id: 'bare', label: 'bare' },
];

describe('serverNames', () => {
  it('names a server by its label, with its id only when another server has the same label', () => {
    const names = serverNames(servers);
    expect(names('a.example/mcp')).toBe('Demo (a.example/mcp)');
    expect(names('b.example/mcp')).toBe('Demo (b.example/mcp)');
    expect(names('tools')).toBe('Tools');
    expect(names('bare')).toBe('bare');
  });

  it('tells apart two servers that differ only in their query or scheme', () => {
    const names = serverNames([
      { id: 'https://h.example/mcp?tenant=a', label: 'Notes' },
      { id: 'https://h.example/mcp?tenant=b', label: 'Notes' },
      { id: 'http://localhost/mcp', label: 'localhost/mcp' },
      { id: 'https://localhost/mcp', label: 'localhost/mcp' },
    ]);
    expect(names('https://h.example/mcp?tenant=a')).toBe('Notes (https://h.example/mcp?tenant=a)');
    expect(names('https://h.example/mcp?tenant=b')).toBe('Notes (https://h.example/mcp?tenant=b)');
    expect(names('http://localhost/mcp')).not.toBe(names('https://localhost/mcp'));
  });

  it('shows an id it does not know (a removed server) as it is', () => {
    expect(serverNames(servers)('gone.example/mcp')).toBe('gone.example/mcp');
  });
});

describe('serverIdsNamed', () => {
  it('maps what the list shows to the ids the audit log stores, in any case', () => {
    expect(serverIdsNamed('tools', servers)).toEqual(['tools']);
    expect(serverIdsNamed('  TOOLS ', servers)).toEqual(['tools']);
    expect(serverIdsNamed('Demo (b.example/mcp)', servers)).toEqual(['b.example/mcp']);
  });

  it('finds every server of a shared label', () => {
    expect(serverIdsNamed('demo', servers)).toEqual(['a.example/mcp', 'b.example/mcp']);
  });

  it('takes anything else as an id (a server no longer in the panel), and nothing for empty text', () => {
    expect(serverIdsNamed('old.example/mcp', servers)).toEqual(['old.example/mcp']);
    expect(serverIdsNamed('   ', servers)).toEqual([]);
  });
});
