/**
 * The one rule for secret-like names, both sides: names that hold credentials in every spelling
 * people use (snake, kebab, dotted, camelCase, PascalCase, SCREAMING_CASE, odd capitals), and names
 * that only share letters with a credential word and must stay readable in the log.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretName } from './secret-names.js';

/** Names as word lists; every spelling of each must be secret. */
const SECRET_NAMES: readonly string[][] = [
  ['auth'],
  ['auth', 'header'],
  ['authorization'],
  ['bearer'],
  ['pass'],
  ['password'],
  ['db', 'password'],
  ['passwd'],
  ['passphrase'],
  ['db', 'pwd'],
  ['github', 'pat'],
  ['aws', 'secret', 'access', 'key'],
  ['api', 'key'],
  ['x', 'api', 'key'],
  ['key'],
  ['client', 'secret'],
  ['secret', 'key', 'base'],
  ['access', 'token'],
  ['refresh', 'token'],
  ['id', 'token'],
  ['cookie'],
  ['set', 'cookie'],
  ['session'],
  ['session', 'id'],
  ['credentials'],
  ['sig'],
  ['signature'],
  ['x', 'amz', 'signature'],
  ['private', 'key'],
  ['private'],
  ['jwt'],
  ['oauth', 'token'],
];

/** Names that share letters with a credential word, or describe a credential without holding it. */
const PLAIN_NAMES: readonly string[][] = [
  ['keyboard'],
  ['keyboard', 'layout'],
  ['monkey'],
  ['passage'],
  ['passenger'],
  ['bypass'],
  ['compass'],
  ['path'],
  ['file', 'path'],
  ['pattern'],
  ['author'],
  ['author', 'name'],
  ['authority'],
  ['design'],
  ['signal'],
  ['tokenizer'],
  ['secretary'],
  ['max', 'tokens'],
  ['input', 'tokens'],
  ['token', 'type'],
  ['token', 'count'],
  ['auth', 'url'],
  ['auth', 'type'],
  ['secret', 'name'],
  ['key', 'id'],
  ['password', 'length'],
  ['cookie', 'domain'],
  ['expires', 'in'],
  ['sort', 'key'],
  ['primary', 'key'],
  ['public', 'key'],
  ['idempotency', 'key'],
  // Place markers of the protocol and of pagination, not credentials.
  ['progress', 'token'],
  ['next', 'token'],
  ['page', 'token'],
  ['next', 'page', 'token'],
  ['continuation', 'token'],
  ['page'],
  ['query'],
];

const SPELLINGS: readonly ((words: readonly string[]) => string)[] = [
  (words) => words.join('_'),
  (words) => words.join('-'),
  (words) => words.join('.'),
  (words) => words.join(' '),
  (words) => words.map((word) => word.toUpperCase()).join('_'),
  (words) => words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('-'),
  (words) =>
    words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join(''),
  (words) => words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(''),
];

describe('isSecretName', () => {
  it('takes every spelling of a credential name for a secret', () => {
    for (const words of SECRET_NAMES)
      for (const spell of SPELLINGS) expect(isSecretName(spell(words)), spell(words)).toBe(true);
  });

  it('leaves names that only look alike, or describe a credential, alone in every spelling', () => {
    for (const words of PLAIN_NAMES)
      for (const spell of SPELLINGS) expect(isSecretName(spell(words)), spell(words)).toBe(false);
  });

  it('catches run-together names by endings only credentials have', () => {
    for (const name of ['accesstoken', 'clientsecret', 'dbpassword', 'xapikey', 'phpsessid', 'jsessionid'])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['monkeykey', 'turkey', 'whiskey', 'hockey'])
      expect(isSecretName(name), name).toBe(false);
  });

  it('keeps the shell working directory readable, but not a password abbreviation', () => {
    expect(isSecretName('PWD')).toBe(false);
    expect(isSecretName('OLDPWD')).toBe(false);
    expect(isSecretName('pwd')).toBe(true);
    expect(isSecretName('DB_PWD')).toBe(true);
  });

  it('ignores capitals: a credential name in any mix of cases is still one', () => {
    const name = fc.constantFrom(...SECRET_NAMES.map((words) => words.join('_')), 'pwd');
    fc.assert(
      fc.property(
        fc.mixedCase(name).filter((mixed) => mixed !== 'PWD'),
        (mixed) => {
          expect(isSecretName(mixed), mixed).toBe(true);
        },
      ),
    );
  });
});
