/** One allow-list for every image a server sends: result blocks, resources and tool icons agree. */
import { describe, expect, it } from 'vitest';
import { base64Bytes, isBase64, safeHttpUrl } from './components/media.js';
import { ALLOWED_IMAGE_TYPES, baseType, safeIconSrc } from './safe-media.js';

describe('the media allow-list', () => {
  it('takes raster images only, whatever the case or parameters', () => {
    expect(ALLOWED_IMAGE_TYPES.has(baseType('Image/PNG; charset=binary'))).toBe(true);
    expect(ALLOWED_IMAGE_TYPES.has(baseType('image/svg+xml'))).toBe(false);
    expect(ALLOWED_IMAGE_TYPES.has(baseType(undefined))).toBe(false);
  });

  it('gives icons the same verdict as result images', () => {
    for (const type of ['image/png', 'image/webp', 'IMAGE/AVIF', 'image/svg+xml', 'text/html']) {
      const allowed = ALLOWED_IMAGE_TYPES.has(baseType(type));
      expect(safeIconSrc({ src: `data:${type};base64,AAAA` }) !== undefined).toBe(allowed);
      expect(safeIconSrc({ src: 'https://example.com/icon', mimeType: type }) !== undefined).toBe(allowed);
    }
    // A declared type with parameters is judged by its base type, as result blocks are.
    expect(safeIconSrc({ src: 'https://example.com/i.png', mimeType: 'image/png; q=1' })).toBe(
      'https://example.com/i.png',
    );
  });

  it('loads icons only over https or as data URLs', () => {
    expect(safeIconSrc({ src: 'https://example.com/i.png' })).toBe('https://example.com/i.png');
    for (const src of ['http://example.com/i.png', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url'])
      expect(safeIconSrc({ src })).toBeUndefined();
  });

  it('opens links only over http(s) and checks base64 before building data URLs', () => {
    expect(safeHttpUrl('https://example.com/a')?.href).toBe('https://example.com/a');
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(isBase64('AAAA')).toBe(true);
    expect(isBase64('AA"A')).toBe(false);
    expect(base64Bytes('AAAA')).toBe(3);
    expect(base64Bytes('AA==')).toBe(1);
  });
});
