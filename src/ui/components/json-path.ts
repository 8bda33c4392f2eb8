/**
 * Paths into a JSON value as a person reads them (`items[0].name`, `headers["content-type"]`): the
 * names of copy buttons and of changed arguments. Keys that are not plain identifiers are quoted, so
 * a key containing a dot never reads as two levels.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The path of a child of `parent` ('' for the root): an array index in brackets, a key after a dot. */
export function childPath(parent: string, key: string, isIndex: boolean): string {
  if (isIndex) return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}
