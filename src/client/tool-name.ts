/**
 * The 2025-11-25 tool naming rule (warned about, never a reason to drop a tool). A module of its own:
 * the catalog checks names with it on every listing, and the panel's tool list shows why a name
 * breaks it (tool-problems.ts) without loading the rest of the tool checks.
 */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
