import { describe, expect, it } from 'vitest';
import { prettyJson } from './result-view.js';

describe('prettyJson', () => {
  it('indents an object or array sent as text by two spaces', () => {
    expect(prettyJson('{"city":"Paris","temps":[1,2]}')).toBe(
      '{\n  "city": "Paris",\n  "temps": [\n    1,\n    2\n  ]\n}',
    );
    expect(prettyJson(' [ {"a" : "x y"} ] ')).toBe('[\n  {\n    "a": "x y"\n  }\n]');
  });

  it('leaves text that is not a JSON object or array as sent', () => {
    for (const text of ['hello', '42', '"a string"', '{not json', '{"a":1} trailing', ''])
      expect(prettyJson(text)).toBe(text);
  });

  it('leaves JSON as sent when parsing it would change more than whitespace', () => {
    for (const text of ['{"id":12345678901234567890}', '{"v":1.0}', '{"s":"\\u00e9"}', '{"a":1,"a":2}'])
      expect(prettyJson(text)).toBe(text);
  });

  it('keeps whitespace and escaped quotes inside strings', () => {
    expect(prettyJson('{"a":"say \\"hi\\"  now"}')).toBe('{\n  "a": "say \\"hi\\"  now"\n}');
  });
});
