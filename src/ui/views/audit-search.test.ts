import { describe, expect, it } from 'vitest';
import { namedServers, serversNamed } from './audit-search.js';

const servers = [
  { id: 'alpha', names: ['toolgate-peer-sdk1 (alpha)', 'toolgate-peer-sdk1'] },
  { id: 'beta', names: ['toolgate-peer-sdk1 (beta)', 'toolgate-peer-sdk1'] },
  { id: 'files', names: ['Files', 'Files'] },
];

describe('a search for what the lists show', () => {
  it('names the servers whose names every word begins a word of', () => {
    expect(serversNamed('toolgate', servers)).toEqual(['alpha', 'beta']);
    expect(serversNamed('peer alpha', servers)).toEqual(['alpha']);
    expect(serversNamed('toolgate-peer-sdk1 (beta)', servers)).toEqual(['beta']);
    expect(serversNamed('FIL', servers)).toEqual(['files']);
    expect(serversNamed('echo', servers)).toBeUndefined();
    expect(serversNamed('files echo', servers)).toBeUndefined();
    expect(serversNamed('  ', servers)).toBeUndefined();
  });

  it('keeps to the server picker and to searches with text', () => {
    expect(namedServers({ text: 'toolgate' }, servers)).toEqual(['alpha', 'beta']);
    expect(namedServers({ text: 'toolgate', serverId: 'beta' }, servers)).toEqual(['beta']);
    expect(namedServers({ text: 'toolgate', serverId: 'files' }, servers)).toEqual([]);
    expect(namedServers({ serverId: 'alpha' }, servers)).toEqual([]);
  });
});
