/** The rooms and their ranks: an import may point only at a room of the same or a lower rank. */
export const RANK: Record<string, number>;
/** Files other rooms may load with `import()` of the file itself, each with its reason. */
export const LAZY_MODULES: Record<string, string>;
/** Test files allowed to reach past another room's door, each with its reason. */
export const TEST_SEAMS: Record<string, string>;
