import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../protocol/index.js';
import { forgetUiResources, loadUiResource } from './resource.js';

const URI = 'ui://weather/app.html';
const html = '<!doctype html><p>weather</p>';

function reader(contents: JsonObject[]) {
  return vi.fn(async (_serverId: string, _uri: string): Promise<JsonObject> => ({ contents }));
}

afterEach(() => forgetUiResources());

describe('loadUiResource', () => {
  it('reads the HTML, its csp, permissions and border preference, and hashes it', async () => {
    const read = reader([
      {
        uri: URI,
        mimeType: 'text/html;profile=mcp-app',
        text: html,
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.weather.example'] },
            permissions: { geolocation: {} },
            prefersBorder: false,
          },
        },
      },
    ]);
    const resource = await loadUiResource(read, 'weather', URI);
    expect(read).toHaveBeenCalledWith('weather', URI);
    expect(resource.html).toBe(html);
    expect(resource.csp.csp.connectDomains).toEqual(['https://api.weather.example']);
    expect(resource.permissions).toEqual(['geolocation']);
    expect(resource.prefersBorder).toBe(false);
    expect(resource.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('decodes base64 UTF-8 blobs', async () => {
    const text = '<p>Zürich ☔</p>';
    const blob = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
    const resource = await loadUiResource(
      reader([{ uri: URI, mimeType: 'text/html;profile=mcp-app', blob }]),
      'weather',
      URI,
    );
    expect(resource.html).toBe(text);
  });

  it('caches by server and URI, and does not cache failures', async () => {
    const read = reader([{ uri: URI, mimeType: 'text/html;profile=mcp-app', text: html }]);
    await loadUiResource(read, 'weather', URI);
    await loadUiResource(read, 'weather', URI);
    expect(read).toHaveBeenCalledTimes(1);
    await loadUiResource(read, 'other', URI);
    expect(read).toHaveBeenCalledTimes(2);
    const failing = vi.fn(async () => {
      throw new Error('offline');
    });
    await expect(loadUiResource(failing, 'flaky', URI)).rejects.toThrow('offline');
    await expect(loadUiResource(failing, 'flaky', URI)).rejects.toThrow('offline');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['another MIME type', [{ uri: URI, mimeType: 'text/html', text: html }], 'not text/html;profile=mcp-app'],
    ['no content', [], 'returned no content'],
    ['neither text nor blob', [{ uri: URI, mimeType: 'text/html;profile=mcp-app' }], 'neither text nor blob'],
    [
      'a blob that is not base64',
      [{ uri: URI, mimeType: 'text/html;profile=mcp-app', blob: '%%%' }],
      'not base64',
    ],
  ])('refuses %s', async (_what, contents, message) => {
    await expect(loadUiResource(reader(contents as JsonObject[]), 'weather', URI)).rejects.toThrow(message);
  });

  it('never reads a URI that is not ui://', async () => {
    const read = reader([]);
    await expect(loadUiResource(read, 'weather', 'https://evil.example/app.html')).rejects.toThrow(
      'not a ui://',
    );
    expect(read).not.toHaveBeenCalled();
  });
});
