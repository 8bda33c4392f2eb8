/**
 * The bare demo page: connect, list, call. The widget (a later issue) replaces this; it stays small
 * and renders server text only through textContent.
 */
import { connect, type McpClient, type Tool } from '../index.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const urlInput = byId<HTMLInputElement>('server-url');
const status = byId<HTMLParagraphElement>('status');
const toolsSection = byId<HTMLElement>('tools-section');
const toolSelect = byId<HTMLSelectElement>('tool');
const toolDescription = byId<HTMLParagraphElement>('tool-description');
const argsInput = byId<HTMLTextAreaElement>('args');
const resultView = byId<HTMLPreElement>('result');
const progressBar = byId<HTMLProgressElement>('progress');
const cancelButton = byId<HTMLButtonElement>('cancel');

urlInput.value = new URLSearchParams(location.search).get('server') ?? new URL('/mcp', location.href).href;

let client: McpClient | undefined;
let tools: Tool[] = [];
let running: AbortController | undefined;

function say(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

byId<HTMLFormElement>('connect-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  await client?.close();
  say(`Connecting to ${urlInput.value}…`);
  try {
    client = await connect({
      url: urlInput.value,
      onElicit: async (request) => {
        const answer = prompt(request.message);
        return answer === null
          ? { action: 'decline' }
          : { action: 'accept', content: answer ? { name: answer } : {} };
      },
    });
    tools = await client.listTools();
    toolSelect.replaceChildren(
      ...tools.map((tool) => {
        const option = document.createElement('option');
        option.value = tool.name;
        option.textContent = tool.title ?? tool.name;
        return option;
      }),
    );
    showTool();
    toolsSection.hidden = false;
    const name = client.serverInfo?.name ?? client.serverId;
    say(`Connected to ${name} (${client.era} era, MCP ${client.protocolVersion}): ${tools.length} tools.`);
  } catch (error) {
    say((error as Error).message, true);
  }
});

function showTool(): void {
  const tool = tools.find((t) => t.name === toolSelect.value);
  toolDescription.textContent = tool?.description ?? '';
}
toolSelect.addEventListener('change', showTool);

byId<HTMLFormElement>('call-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!client) return;
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(argsInput.value || '{}');
  } catch (error) {
    say(`The arguments are not valid JSON: ${(error as Error).message}`, true);
    return;
  }
  running = new AbortController();
  cancelButton.disabled = false;
  progressBar.hidden = false;
  progressBar.removeAttribute('value');
  resultView.textContent = '';
  say(`Calling ${toolSelect.value}…`);
  try {
    const result = await client.callTool(toolSelect.value, args, {
      signal: running.signal,
      onprogress: ({ progress, total }) => {
        if (total) {
          progressBar.max = total;
          progressBar.value = progress;
        }
      },
    });
    resultView.textContent = JSON.stringify(result, null, 2);
    say(
      result.isError ? `${toolSelect.value} reported an error.` : `${toolSelect.value} finished.`,
      result.isError,
    );
  } catch (error) {
    say((error as Error).message, true);
  } finally {
    running = undefined;
    cancelButton.disabled = true;
    progressBar.hidden = true;
  }
});

cancelButton.addEventListener('click', () => running?.abort('cancelled from the demo page'));
