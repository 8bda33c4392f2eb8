import { describe, expect, it } from 'vitest';
import { parseManagedClients } from './managed-clients.js';

describe('client ids a deployer pre-registered (managed storage)', () => {
  it('keeps well-formed entries as public clients and leaves out anything else', () => {
    expect(
      parseManagedClients([
        { issuer: 'https://login.example', clientId: 'toolgate-ext' },
        { issuer: 'http://127.0.0.1:9000', clientId: 'local' },
        { issuer: 'http://login.example', clientId: 'plain-http elsewhere' },
        { issuer: 'not a url', clientId: 'x' },
        { issuer: 'https://login.example', clientId: '' },
        { clientId: 'no issuer' },
        'a string',
        null,
      ]),
    ).toEqual([
      { issuer: 'https://login.example', clientId: 'toolgate-ext', tokenEndpointAuthMethod: 'none' },
      { issuer: 'http://127.0.0.1:9000', clientId: 'local', tokenEndpointAuthMethod: 'none' },
    ]);
    expect(parseManagedClients(undefined)).toEqual([]);
    expect(parseManagedClients({ issuer: 'https://login.example', clientId: 'x' })).toEqual([]);
  });
});
