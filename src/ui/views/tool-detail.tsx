/**
 * The selected tool in full: the description never cut without a way to expand, poisoning flags,
 * annotations marked "claimed" unless the server is trusted, schemas, an on/off switch, and a form
 * to call it (through the gate, like every call).
 */

import { useSignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { toolNameProblem } from '../../client/tool-checks.js';
import { detectPoisoning, revealInvisible } from '../../gate/poisoning.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { JsonTree } from '../components/json-tree.js';
import { SchemaForm, withDefaults } from '../components/schema-form.js';
import type { PanelController } from '../controller.js';
import type { Row } from './tools-view.js';

export function ToolDetail({ row, controller }: { row: Row; controller: PanelController }) {
  const { server, tool } = row;
  const trusted = server.trust === 'trusted';
  const flags = useMemo(() => detectPoisoning(tool), [tool]);
  const args = useSignal<JsonObject>(withDefaults(tool.inputSchema as JsonObject, {}));
  const status = useSignal('');
  const expanded = useSignal(false);
  const description = revealInvisible(tool.description ?? '');
  const long = description.length > 400;
  const enabled = !server.disabled.has(tool.name);
  const annotations = Object.entries(tool.annotations ?? {}).filter(([key]) => key !== 'title');
  const nameProblem = toolNameProblem(tool.name);
  const twins = server.tools.filter((other) => other.name === tool.name).length;

  const run = async (event: Event) => {
    event.preventDefault();
    status.value = 'Waiting for approval…';
    try {
      await controller.call(server.id, tool.name, args.value);
      status.value = 'Done: see Activity.';
    } catch (error) {
      status.value = (error as Error).message;
    }
  };

  return (
    <article class="tg-tool-detail" aria-labelledby="tg-tool-detail-title">
      <h3 id="tg-tool-detail-title">{tool.title ?? tool.name}</h3>
      <p class="tg-muted">
        <code>{tool.name}</code> on {server.label}
      </p>
      {(nameProblem || twins > 1) && (
        <ul class="tg-warning" aria-label="Problems with this tool's listing">
          {nameProblem && <li>This name breaks the MCP naming rules: {nameProblem}.</li>}
          {twins > 1 && (
            <li>
              {server.label} lists {twins} tools with this name; Toolgate refuses calls to it while their
              definitions differ.
            </li>
          )}
        </ul>
      )}
      {flags.length > 0 && (
        <ul class="tg-flags" aria-label="Warnings about this tool's text">
          {flags.map((flag) => (
            <li key={`${flag.field}-${flag.kind}`} class="tg-flag">
              {flag.field}: {flag.detail}
            </li>
          ))}
        </ul>
      )}
      <p class="tg-description">{long && !expanded.value ? `${description.slice(0, 400)}…` : description}</p>
      {long && (
        <button
          type="button"
          onClick={() => {
            expanded.value = !expanded.value;
          }}
        >
          {expanded.value ? 'Show less' : 'Show the whole description'}
        </button>
      )}
      {annotations.length > 0 && (
        <ul class="tg-badges" aria-label="Annotations">
          {annotations.map(([key, value]) => (
            <li key={key} class={`tg-badge ${key === 'destructiveHint' && value ? 'tg-badge-danger' : ''}`}>
              {key}: {String(value)}
              {!trusted && <span class="tg-claimed"> (claimed)</span>}
            </li>
          ))}
        </ul>
      )}
      <label class="tg-row">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) =>
            void controller.setToolEnabled(
              server.id,
              tool.name,
              (e.currentTarget as HTMLInputElement).checked,
            )
          }
        />
        Enabled (switched-off tools are refused by the gate)
      </label>
      <details>
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} />
      </details>
      {tool.outputSchema && (
        <details>
          <summary>Output schema</summary>
          <JsonTree value={tool.outputSchema} />
        </details>
      )}
      <form class="tg-try" onSubmit={run}>
        <h4>Call it</h4>
        <SchemaForm
          schema={tool.inputSchema as JsonObject}
          value={args.value}
          idPrefix={`tg-try-${server.id}-${tool.name}`}
          onChange={(next) => {
            args.value = next;
          }}
        />
        <button type="submit" disabled={!enabled || server.state !== 'connected'}>
          Call {tool.title ?? tool.name}
        </button>
        {status.value && <p role="status">{status.value}</p>}
      </form>
    </article>
  );
}
