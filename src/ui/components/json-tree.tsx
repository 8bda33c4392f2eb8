/**
 * Collapsible JSON built from nested <details>/<summary>: keyboard accessible and announced by
 * screen readers without any script of ours. Everything is rendered as text, never as HTML.
 */

import { useSignal } from '@preact/signals';

/** Strings longer than this are cut until asked for: a megabyte of base64 should not freeze the page. */
const LONG = 500;

export function JsonTree({
  value,
  label,
  collapsedDepth = 2,
}: {
  value: unknown;
  label?: string;
  collapsedDepth?: number;
}) {
  return (
    <div class="tg-json">
      <Node value={value} name={label} depth={0} collapsedDepth={collapsedDepth} ancestors={[]} />
    </div>
  );
}

interface NodeProps {
  value: unknown;
  name: string | undefined;
  depth: number;
  collapsedDepth: number;
  /** Objects above this one: a value built in code (not parsed JSON) may be circular. */
  ancestors: readonly object[];
}

function Node({ value, name, depth, collapsedDepth, ancestors }: NodeProps) {
  const key = name !== undefined ? <span class="tg-json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div class="tg-json-leaf">
        {key}
        <Leaf value={value} />
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
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const count = isArray
    ? `[${entries.length} ${entries.length === 1 ? 'item' : 'items'}]`
    : `{${entries.length} ${entries.length === 1 ? 'key' : 'keys'}}`;
  const below = [...ancestors, value];
  return (
    <details class="tg-json-node" open={depth < collapsedDepth}>
      <summary>
        {key}
        <span class="tg-json-count">{count}</span>
      </summary>
      <ul class="tg-json-children">
        {entries.map(([childKey, child]) => (
          <li key={childKey}>
            <Node
              value={child}
              name={childKey}
              depth={depth + 1}
              collapsedDepth={collapsedDepth}
              ancestors={below}
            />
          </li>
        ))}
      </ul>
    </details>
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
