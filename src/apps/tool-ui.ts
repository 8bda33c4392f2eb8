/**
 * What a tool's `_meta.ui` says: which UI resource renders its results, and who may call it.
 * Server data is untrusted in shape, so every field is checked before it counts. Small and free of
 * imports on purpose: the host API and the panel's first chunks use it, the app host comes later.
 */

import type { Tool } from '../protocol/index.js';
import { type ToolVisibility, UI_SCHEME } from './spec.js';

/** The deprecated flat key some servers still send beside `_meta.ui.resourceUri`. */
const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

const DEFAULT_VISIBILITY: readonly ToolVisibility[] = ['model', 'app'];

function uiMeta(tool: Pick<Tool, '_meta'>): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui)
    ? (ui as Record<string, unknown>)
    : undefined;
}

/** The `ui://` resource that renders this tool's results, or undefined (no app, or not a ui:// URI). */
export function uiResourceUriOf(tool: Pick<Tool, '_meta'>): string | undefined {
  const nested = uiMeta(tool)?.resourceUri;
  const flat = tool._meta?.[FLAT_RESOURCE_URI_KEY];
  const uri = typeof nested === 'string' ? nested : typeof flat === 'string' ? flat : undefined;
  return uri !== undefined && isUiResourceUri(uri) ? uri : undefined;
}

/** True for a well-formed `ui://` URI (the only scheme the extension allows for UI resources). */
export function isUiResourceUri(uri: string): boolean {
  try {
    return new URL(uri).protocol === UI_SCHEME;
  } catch {
    // Not a URL: then not a ui:// resource either.
    return false;
  }
}

/**
 * Who may see the tool. Absent means both; a malformed value (not an array of known words) means
 * neither: a server that tried to say something we cannot read gets the narrowest reading.
 */
export function visibilityOf(tool: Pick<Tool, '_meta'>): readonly ToolVisibility[] {
  const declared = uiMeta(tool)?.visibility;
  if (declared === undefined) return DEFAULT_VISIBILITY;
  if (!Array.isArray(declared)) return [];
  return declared.filter((v): v is ToolVisibility => v === 'model' || v === 'app');
}

/** True when the tool may be offered to a model (its visibility includes "model"). */
export function isOfferedToModel(tool: Pick<Tool, '_meta'>): boolean {
  return visibilityOf(tool).includes('model');
}

/** True when an app of the same server may call the tool (its visibility includes "app"). */
export function isCallableByApp(tool: Pick<Tool, '_meta'>): boolean {
  return visibilityOf(tool).includes('app');
}
