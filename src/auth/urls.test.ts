import { describe, expect, it } from 'vitest';
import {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  isAllowedEndpoint,
  protectedResourceMetadataUrls,
  resourceCoversServer,
} from './urls.js';

describe('canonicalResourceUri', () => {
  it('keeps the path, drops a bare trailing slash, the fragment and the query', () => {
    expect(canonicalResourceUri('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(canonicalResourceUri('https://mcp.example.com/')).toBe('https://mcp.example.com');
    expect(canonicalResourceUri('https://mcp.example.com:8443')).toBe('https://mcp.example.com:8443');
    expect(canonicalResourceUri('HTTPS://MCP.Example.com/server/mcp#frag')).toBe(
      'https://mcp.example.com/server/mcp',
    );
    expect(canonicalResourceUri('https://mcp.example.com/mcp?api_key=secret')).toBe(
      'https://mcp.example.com/mcp',
    );
  });
});

describe('protectedResourceMetadataUrls', () => {
  it('tries the path-specific location first, then the root (the spec example)', () => {
    expect(protectedResourceMetadataUrls('https://example.com/public/mcp')).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('has only the root location for a server at the root', () => {
    expect(protectedResourceMetadataUrls('https://example.com/')).toEqual([
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
  });
});

describe('authorizationServerMetadataUrls', () => {
  it('follows the MCP order for an issuer with a path', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('follows the MCP order for an issuer without a path', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});

describe('resourceCoversServer', () => {
  const server = 'https://mcp.example.com/tenant/mcp';

  it('accepts the server itself and a resource above it on whole path segments', () => {
    expect(resourceCoversServer('https://mcp.example.com/tenant/mcp', server)).toBe(true);
    expect(resourceCoversServer('https://mcp.example.com/tenant', server)).toBe(true);
    expect(resourceCoversServer('https://mcp.example.com', server)).toBe(true);
    expect(resourceCoversServer('https://MCP.example.com/', server)).toBe(true);
  });

  it('refuses another origin, a sibling path, a deeper path and a fragment', () => {
    expect(resourceCoversServer('https://evil.example.com/tenant/mcp', server)).toBe(false);
    expect(resourceCoversServer('http://mcp.example.com/tenant/mcp', server)).toBe(false);
    expect(resourceCoversServer('https://mcp.example.com/ten', server)).toBe(false);
    expect(resourceCoversServer('https://mcp.example.com/tenant/mcp/extra', server)).toBe(false);
    expect(resourceCoversServer('https://mcp.example.com/tenant/mcp#x', server)).toBe(false);
    expect(resourceCoversServer('not a url', server)).toBe(false);
  });
});

describe('isAllowedEndpoint', () => {
  it('allows https anywhere and http on this machine only', () => {
    expect(isAllowedEndpoint('https://auth.example.com/token')).toBe(true);
    expect(isAllowedEndpoint('http://localhost:9000/token')).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:9000/token')).toBe(true);
    expect(isAllowedEndpoint('http://auth.example.com/token')).toBe(false);
    expect(isAllowedEndpoint('https://user:pass@auth.example.com/token')).toBe(false);
    expect(isAllowedEndpoint('javascript:alert(1)')).toBe(false);
  });
});
