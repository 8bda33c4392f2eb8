/**
 * Collapsible JSON built from nested <details>/<summary>: keyboard accessible and announced by
 * screen readers without any script of ours. Everything is rendered as text, never as HTML.
 *
 * Bounded whatever the server sends: a closed node renders no children (so a result nested 10,000
 * levels deep costs one node per level the person opens, never a recursion through all of them),
 * a node shows its first children with "show more", and long strings are cut until asked for.
 *
 * Every node has a Copy button named by its path ("Copy value of items[0].name"): strings are copied
 * as their text, anything else as JSON indented by two spaces. The button sits beside the node's
 * <summary>, not inside it, so pressing it never opens or closes the node.
 */

import { useSignal } from '@preact/signals';
import { CopyButton } from './copy-button.js';
import { childPath } from './json-path.js';

/** Strings longer than this are cut until asked for: a megabyte of base64 should not freeze the page. */
const LONG = 500;
/** Children shown at once under one node; more on request. */
export const CHILDREN_PAGE = 200;

export function JsonTree({
  value,
  label,
  path = '',
  collapsedDepth = 2,
}: {
  value: unknown;
  label?: string;
  /** The path of the whole value, which the copy buttons' names start with (e.g. "structuredContent"). */
  path?: string;
  collapsedDepth?: number;
}) {
  return (
    <div class="tg-json">
      <Node value={value} name={label} path={path} depth={0} collapsedDepth={collapsedDepth} ancestors={[]} />
    </div>
  );
}

/** The text a node's Copy button copies. */
function copyTextOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    // Circular or a bigint: not JSON, but still something to paste.
    return String(value);
  }
}

function NodeCopy({ value, path }: { value: unknown; path: string }) {
  return (
    <CopyButton
      text={() => copyTextOf(value)}
      label={path ? `Copy value of ${path}` : 'Copy the whole value'}
    />
  );
}

interface NodeProps {
  value: unknown;
  name: string | undefined;
  /** Where the node is in the whole value ('' for the root). */
  path: string;
  depth: number;
  collapsedDepth: number;
  /** Objects above this one: a value built in code (not parsed JSON) may be circular. */
  ancestors: readonly object[];
}

function Node({ value, name, path, depth, collapsedDepth, ancestors }: NodeProps) {
  const key = name !== undefined ? <span class="tg-json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div class="tg-json-leaf">
        <span>
          {key}
          <Leaf value={value} />
        </span>
        <NodeCopy value={value} path={path} />
      </div>
    );
  }
  if (ancestors.includes(value)) {
    return (
      <div class="tg-json-leaf">
        {key}
        <span class="tg-muted">(circular)</span>
      </div>
    );
  }
  return (
    <Branch
      value={value}
      keyLabel={key}
      path={path}
      depth={depth}
      collapsedDepth={collapsedDepth}
      ancestors={ancestors}
    />
  );
}

function Branch({
  value,
  keyLabel,
  path,
  depth,
  collapsedDepth,
  ancestors,
}: Omit<NodeProps, 'name' | 'value'> & { value: object; keyLabel: preact.ComponentChild }) {
  const open = useSignal(depth < collapsedDepth);
  const shown = useSignal(CHILDREN_PAGE);
  const isArray = Array.isArray(value);
  const size = isArray ? value.length : Object.keys(value).length;
  const count = isArray
    ? `[${size} ${size === 1 ? 'item' : 'items'}]`
    : `{${size} ${size === 1 ? 'key' : 'keys'}}`;
  return (
    <div class="tg-json-branch">
      <NodeCopy value={value} path={path} />
      <details
        class="tg-json-node"
        open={open.value}
        onToggle={(event) => {
          open.value = (event.currentTarget as HTMLDetailsElement).open;
        }}
      >
        <summary>
          {keyLabel}
          <span class="tg-json-count">{count}</span>
        </summary>
        {open.value ? (
          <Children
            value={value}
            path={path}
            limit={shown.value}
            depth={depth}
            collapsedDepth={collapsedDepth}
            ancestors={ancestors}
            onMore={() => {
              shown.value += CHILDREN_PAGE;
            }}
          />
        ) : null}
      </details>
    </div>
  );
}

function Children({
  value,
  path,
  limit,
  depth,
  collapsedDepth,
  ancestors,
  onMore,
}: Omit<NodeProps, 'name' | 'value'> & { value: object; limit: number; onMore: () => void }) {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.slice(0, limit).map((item, index) => [String(index), item])
    : Object.entries(value).slice(0, limit);
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  const below = [...ancestors, value];
  const isArray = Array.isArray(value);
  return (
    <ul class="tg-json-children">
      {entries.map(([childKey, child]) => (
        <li key={childKey}>
          <Node
            value={child}
            name={childKey}
            path={childPath(path, childKey, isArray)}
            depth={depth + 1}
            collapsedDepth={collapsedDepth}
            ancestors={below}
          />
        </li>
      ))}
      {size > limit ? (
        <li>
          <button type="button" class="tg-link-button" onClick={onMore}>
            show {Math.min(CHILDREN_PAGE, size - limit)} more of {size - limit} not shown
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function Leaf({ value }: { value: unknown }) {
  const showAll = useSignal(false);
  if (typeof value !== 'string')
    return <span class={`tg-json-${value === null ? 'null' : typeof value}`}>{scalarText(value)}</span>;
  if (value.length <= LONG || showAll.value)
    return <span class="tg-json-string">{JSON.stringify(value)}</span>;
  return (
    <span class="tg-json-string">
      {JSON.stringify(value.slice(0, LONG)).slice(0, -1)}…{' '}
      <button
        type="button"
        class="tg-link-button"
        onClick={() => {
          showAll.value = true;
        }}
      >
        show all {value.length} characters
      </button>
    </span>
  );
}

/** String() spells JSON scalars as JSON does, and keeps NaN, undefined or a bigint honest (not "null"). */
function scalarText(value: unknown): string {
  return String(value);
}
