/**
 * A tool's title is the server's own words, and it can be another tool's name: `delete_everything`
 * titled `lookup`, beside a real `lookup`. Rules, grants and the Sites view work by name, so the
 * approval dialog always shows the name and flags a title that is, or looks like, the name of a
 * different tool (this server's or any connected server's).
 *
 * "Looks like" is two comparisons, either of which is enough:
 * - loose equality: the same text once Unicode compatibility forms are folded (NFKC: full-width and
 *   mathematical letters, ligatures), invisible characters removed, case ignored, and whitespace
 *   and separators (`_`, `-`, `.`, `/`, `:`, dashes, connectors) dropped: `Look Up` ~ `look_up`.
 * - the same skeleton: as above, after Latin lookalikes from other scripts and the classic
 *   digit and letter swaps are mapped to the Latin letter they imitate (`lооkup` with Cyrillic o,
 *   `de1ete`, `de|ete`, `deIete` with a capital I, `rn` for `m`). A subset of the confusables of
 *   Unicode TS #39, enough for the Latin-script names tools have.
 * A title that matches the tool's own name is its own name, not a disguise, and is never flagged.
 */

/** A tool as this check sees it: its name, and the label of the server that lists it. */
export interface NamedTool {
  name: string;
  serverLabel: string;
}

/** What the title imitates: the other tool's name and server, and whether it is that name exactly. */
export interface TitleLookalike {
  tool: NamedTool;
  exact: boolean;
}

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}]/gu;
const SEPARATORS = /[\s\p{Pd}\p{Pc}\p{Zs}_./:\\·]+/gu;

/**
 * Characters that imitate a Latin letter or digit, mapped to what they imitate. Case-sensitive on
 * purpose: a capital I imitates a lowercase l, a lowercase i does not.
 */
const LOOKALIKES: Record<string, string> = {
  // Digits and ASCII look-alikes.
  '0': 'o',
  '1': 'l',
  '|': 'l',
  I: 'l',
  // Cyrillic.
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  Ѕ: 's',
  І: 'l',
  Ј: 'j',
  // Greek.
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'l',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  // Armenian and Latin extensions.
  օ: 'o',
  ո: 'n',
  ս: 'u',
  ɑ: 'a',
  ɡ: 'g',
  ı: 'i',
  ʟ: 'l',
};

const fold = (text: string) => text.normalize('NFKC').replace(INVISIBLE, '');

/** Case, separators, whitespace, compatibility forms and invisible characters ignored. */
function loose(text: string): string {
  return fold(text).toLowerCase().replace(SEPARATORS, '');
}

/** `loose`, after every lookalike is mapped to the letter it imitates (and `rn` to `m`). */
function skeleton(text: string): string {
  const mapped = [...fold(text)].map((char) => LOOKALIKES[char] ?? char).join('');
  return mapped.toLowerCase().replace(SEPARATORS, '').replaceAll('rn', 'm');
}

/** Whether two names read the same to a person (see the rules above). */
export function looksLikeName(a: string, b: string): boolean {
  return loose(a) === loose(b) || skeleton(a) === skeleton(b);
}

/**
 * The other tool whose name `title` is or imitates, or undefined. `ownName` is the titled tool's
 * name; `tools` are every tool the person has (this server's and every connected server's; the
 * titled tool itself may be among them). An exact match is preferred to a lookalike.
 */
export function titleLookalike(
  title: string | undefined,
  ownName: string,
  tools: readonly NamedTool[],
): TitleLookalike | undefined {
  if (title === undefined || title.trim() === '') return undefined;
  if (looksLikeName(title, ownName)) return undefined;
  const others = tools.filter((tool) => tool.name !== ownName);
  const exact = others.find((tool) => tool.name === title);
  if (exact) return { tool: exact, exact: true };
  const similar = others.find((tool) => looksLikeName(title, tool.name));
  return similar ? { tool: similar, exact: false } : undefined;
}
