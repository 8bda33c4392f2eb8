/**
 * The demo page's own WebMCP tools (issue 31): where the browser has WebMCP, the page offers its
 * agent two tools through Toolgate's registerPageTools, so each call the agent makes is asked in
 * the panel and recorded in the audit log before the page runs it. Both show up in the panel too,
 * on the server "This page". Elsewhere nothing is registered and nothing is said.
 */

import type { PanelController } from '../session/index.js';

/** Where the agent's notes are shown: text only, never markup. */
function noteArea(): HTMLElement {
  const existing = document.getElementById('demo-agent-note');
  if (existing) return existing;
  const note = document.createElement('p');
  note.id = 'demo-agent-note';
  note.setAttribute('aria-live', 'polite');
  document.getElementById('demo-connected')?.after(note);
  return note;
}

export async function offerDemoToolsToAgent(controller: PanelController): Promise<void> {
  if (!('modelContext' in document) || controller.pageTools !== 'listed') return;
  const { registerPageTools } = await import('../host/index.js');
  await registerPageTools(controller, {
    tools: [
      {
        name: 'list_connected_servers',
        title: 'Connected servers',
        description: "Lists the MCP servers connected in this page's Toolgate panel, with their tool counts.",
        annotations: { readOnlyHint: true },
        execute: () =>
          controller.servers.value
            .filter((server) => server.state === 'connected')
            .map((server) => `${server.label}: ${server.tools.length} tools`)
            .join('\n') || 'No server is connected.',
      },
      {
        name: 'show_note',
        title: 'Show a note',
        description: 'Shows a short note on the demo page, under its introduction.',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 280, description: 'What the note says' } },
          required: ['text'],
        },
        execute: (input) => {
          const text = String(input.text ?? '');
          noteArea().textContent = `Note from the browser's agent: ${text}`;
          return `Shown: ${text}`;
        },
      },
    ],
  });
}
