/**
 * The page of bench/offerings.mjs: <toolgate-panel> connected to the bench's offerings server (same
 * origin, so no CORS preflight is measured). Measures, in Chromium:
 *   - listing 10,000 resources in the Resources tab: from the tab's click to the first row painted,
 *     to every row painted, and the JS heap the tab added (after a forced GC, before and after);
 *   - completion round trips through Toolgate (the panel's completion: the gate's `complete`, the
 *     client, the transport) against a plain fetch() of the same JSON-RPC request to the same server.
 */
import type { Controller } from '../../src/session/index.js';
import { defineToolgatePanel, type ToolgatePanelElement } from '../../src/widget.js';

declare global {
  interface Window {
    listResourcesBench(): Promise<{
      firstRowMs: number;
      firstRows: number;
      allRowsMs: number;
      rows: number;
      heapBytes: number;
      searchOneMs: number;
      searchNoneMs: number;
      searchClearMs: number;
    }>;
    completeBench(calls: number, rounds: number): Promise<{ toolgateMs: number; floorMs: number }>;
    gc?: () => void;
  }
}

defineToolgatePanel();
const panel = document.createElement('toolgate-panel') as ToolgatePanelElement;
panel.options = { servers: [{ url: `${location.origin}/mcp`, id: 'bench' }], audit: 'memory' };
document.body.append(panel);
const controller: Controller = await panel.ready;
await new Promise<void>((resolve) => {
  const stop = controller.servers.subscribe((servers) => {
    if (servers.some((server) => server.state === 'connected')) {
      queueMicrotask(() => stop());
      resolve();
    }
  });
});

const root = () => panel.shadowRoot ?? panel;
const frame = () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
const heap = () => {
  window.gc?.();
  return (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
};

window.listResourcesBench = async () => {
  const before = heap();
  const tab = [...root().querySelectorAll<HTMLElement>('[role="tab"]')].find((element) =>
    element.textContent?.trim().startsWith('Resources'),
  );
  if (!tab) throw new Error('no Resources tab');
  const start = performance.now();
  tab.click();
  let firstRowMs = -1;
  let firstRows = 0;
  let rows = 0;
  for (;;) {
    const at = await frame();
    rows = root().querySelectorAll('.tg-offer-row').length;
    if (firstRowMs < 0 && rows > 0) {
      firstRowMs = at - start;
      firstRows = rows;
    }
    // Every row, and the listing says it is done (no "Loading more…").
    if (rows >= 10_001 && !root().querySelector('.tg-offer-group')?.textContent?.includes('Loading more')) {
      const allRowsMs = at - start;
      const heapBytes = heap() - before;
      return {
        firstRowMs,
        firstRows,
        allRowsMs,
        rows,
        heapBytes,
        ...(await searches(rows)),
      };
    }
    if (at - start > 120_000) throw new Error(`only ${rows} rows after two minutes`);
  }
};

/**
 * Search over the full listing, from the keystroke's input event to the frame that shows the
 * result: no match (from every row shown), one match (from none), then cleared (every row again).
 */
async function searches(all: number) {
  const field = root().querySelector<HTMLInputElement>('#tg-resource-search');
  if (!field) throw new Error('no search field');
  const search = async (query: string, expected: number) => {
    const start = performance.now();
    field.value = query;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    for (;;) {
      const at = await frame();
      if (root().querySelectorAll('.tg-offer-row').length === expected) return at - start;
      if (at - start > 60_000) throw new Error(`search "${query}" never showed ${expected} rows`);
    }
  };
  // None from every row (the scan and every row removed), then one from none (the scan alone).
  const searchNoneMs = await search('matches-nothing-at-all', 0);
  const searchOneMs = await search('item-4321', 1);
  const searchClearMs = await search('', all);
  return { searchOneMs, searchNoneMs, searchClearMs };
}

const REQUEST = {
  ref: { type: 'ref/resource' as const, uri: 'bench://items/{id}' },
  argument: { name: 'id', value: '12' },
};

window.completeBench = async (calls, rounds) => {
  const offerings = controller.offerings;
  if (!offerings) throw new Error('no offerings');
  const viaToolgate = async () => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await offerings.complete('bench', REQUEST);
    return (performance.now() - start) / calls;
  };
  let id = 0;
  const viaFetch = async () => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      const response = await fetch('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'completion/complete', params: REQUEST }),
      });
      const answer = (await response.json()) as { result?: { completion?: unknown } };
      if (!answer.result?.completion) throw new Error('the floor got no completion');
    }
    return (performance.now() - start) / calls;
  };
  await viaToolgate();
  await viaFetch();
  const toolgate: number[] = [];
  const floor: number[] = [];
  // Alternating rounds, so both see the same machine.
  for (let round = 0; round < rounds; round++) {
    toolgate.push(await viaToolgate());
    floor.push(await viaFetch());
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { toolgateMs: median(toolgate), floorMs: median(floor) };
};

document.body.dataset.ready = 'yes';
