import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uri-template.js';

describe('URI templates', () => {
  it('names each variable once, in order, across operators', () => {
    expect(templateVariables('demo://resource/{id}')).toEqual(['id']);
    expect(templateVariables('file:///{+path}{?q,page}{#q}')).toEqual(['path', 'q', 'page']);
  });

  it('percent-encodes what is typed so it cannot change the URI structure', () => {
    expect(expandTemplate('demo://resource/{id}', { id: '1/../2?x' })).toBe('demo://resource/1%2F..%2F2%3Fx');
    expect(expandTemplate('file:///{+path}', { path: 'a/b c' })).toBe('file:///a/b%20c');
    expect(expandTemplate('x://s{?q,page}', { q: 'a&b', page: '' })).toBe('x://s?q=a%26b');
  });
});
