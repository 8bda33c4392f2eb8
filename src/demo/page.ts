/**
 * The bare demo page: connect, list, call through the gate. The widget (a later issue) replaces the
 * browser confirm() used here as the approver; server text is rendered only through textContent.
 */
import {
  type ApprovalRequest,
  connect,
  createAuditLog,
  createGate,
  createPolicy,
  createSchemaValidator,
  type Gate,
  idbSettingsStore,
  type McpClient,
  programmaticApprover,
  revealInvisible,
  type Tool,
} from '../index.js';

const SERVER_ID = 'demo';

/** Shows what will be sent, and why the gate asks, in the browser's own dialog. */
function askThePerson(request: ApprovalRequest) {
  const lines = [
    `Allow "${revealInvisible(request.pinned.tool.name)}" on ${request.serverLabel}?`,
    '',
    `Arguments: ${JSON.stringify(request.arguments, null, 2)}`,
    '',
    request.decision.reason,
  ];
  const claims = Object.entries(request.annotations.claims).filter(([, value]) => value === true);
  if (claims.length > 0)
    lines.push(
      `The server ${request.annotations.trusted ? 'says' : 'claims (unverified)'}: ${claims.map(([k]) => k).join(', ')}`,
    );
  for (const flag of request.poisoning) lines.push(`Warning (${flag.field}): ${flag.detail}`);
  for (const change of request.definitionChange?.changes ?? [])
    lines.push(`Changed ${change.field}: ${change.before ?? '(none)'} -> ${change.after ?? '(none)'}`);
  return window.confirm(lines.join('\n'))
    ? ({ action: 'allow', remember: 'once', decidedBy: 'demo page visitor' } as const)
    : ({ action: 'deny', reason: 'the visitor said no' } as const);
}

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
let gate: Gate | undefined;
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
      id: SERVER_ID,
      onElicit: async (request) => {
        const answer = prompt(request.message);
        return answer === null
          ? { action: 'decline' }
          : { action: 'accept', content: answer ? { name: answer } : {} };
      },
    });
    gate = createGate({
      servers: new Map([[SERVER_ID, client]]),
      policy: createPolicy({ store: idbSettingsStore() }),
      validator: createSchemaValidator(),
      audit: await createAuditLog({ name: 'toolgate-demo-audit' }),
      approver: programmaticApprover(askThePerson),
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
  if (!gate) return;
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
    const { result, outputValidation } = await gate.call({
      serverId: SERVER_ID,
      toolName: toolSelect.value,
      arguments: args,
      caller: { kind: 'person', label: 'demo page' },
      signal: running.signal,
      onprogress: ({ progress, total }) => {
        if (total) {
          progressBar.max = total;
          progressBar.value = progress;
        }
      },
    });
    resultView.textContent = JSON.stringify(
      { ...result, ...(outputValidation ? { outputValidation } : {}) },
      null,
      2,
    );
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
