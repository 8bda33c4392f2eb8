/**
 * How a web app gives a model MCP tools with Toolgate. The "model" here is a script, so the page
 * needs no key, but every step is what an app does with a real one:
 *   1. offer the connected servers' tools in the model API's format (OpenAI chat completions here);
 *   2. read the model's tool call back (names are qualified per server and reversible);
 *   3. run it through the gate: the person approves, edits or denies it in the overlay;
 *   4. hand the outcome back to the model as that API's tool message.
 * And the rest of what servers offer: their prompts as slash commands (with completion of an
 * argument as the person types) and their resources as attachments, each get and read through the
 * gate, turned into the model API's messages by toOpenAIChatMessages.
 */
import {
  createToolgateHost,
  createToolNameMap,
  fromOpenAIChatToolCall,
  type HostPrompt,
  OPENAI_TOOL_NAMES,
  type OpenAIChatMessage,
  type OpenAIChatToolCall,
  toOpenAIChatMessages,
  toOpenAIChatToolMessage,
  toOpenAIChatTools,
} from '../../src/host/index.js';
import { defineToolgatePanel, type ToolgatePanelElement } from '../../src/widget.js';

const panel = document.getElementById('toolgate') as ToolgatePanelElement;
panel.options = {
  servers: [
    {
      id: 'demo',
      label: 'Demo server (in your browser)',
      worker: () =>
        new Worker(new URL('../../src/demo/browser-server.ts', import.meta.url), { type: 'module' }),
    },
  ],
};
defineToolgatePanel();
const host = createToolgateHost({
  controller: await panel.ready,
  caller: { kind: 'host', label: 'the assistant' },
});

/** The canned conversation: what the person says, and the tool call the "model" answers with. */
const script = [
  { user: 'What is the weather in Lisbon?', tool: 'weather', args: { city: 'Lisbon' } },
  { user: 'And what is 2 plus 40?', tool: 'add', args: { a: 2, b: 40 } },
  { user: 'Please delete /tmp/report.txt.', tool: 'delete_file', args: { path: '/tmp/report.txt' } },
];

const conversation = document.getElementById('conversation') as HTMLOListElement;
const next = document.getElementById('next') as HTMLButtonElement;
const status = document.getElementById('status') as HTMLParagraphElement;

function say(role: 'user' | 'assistant' | 'tool', text: string): void {
  const item = document.createElement('li');
  item.className = role;
  // Tool output is server text: textContent only, never HTML.
  item.textContent = `${role === 'user' ? 'You' : role === 'assistant' ? 'Assistant' : 'Tool'}: ${text}`;
  conversation.append(item);
}

async function turn(step: (typeof script)[number]): Promise<void> {
  say('user', step.user);
  // 1. What the app would send the model with this message.
  const offered = host.tools();
  const names = createToolNameMap(
    OPENAI_TOOL_NAMES,
    offered.map(({ serverId, tool }) => ({ serverId, toolName: tool.name })),
  );
  const tools = toOpenAIChatTools(offered, names);
  // 2. The "model" picks a tool from what it was offered, as a real one would.
  const name = names.nameFor('demo', step.tool);
  if (!name || !tools.some((tool) => tool.function.name === name)) {
    say('assistant', `I have no ${step.tool} tool right now (is it switched off in Toolgate?).`);
    return;
  }
  const toolCall: OpenAIChatToolCall = {
    id: `call_${crypto.randomUUID().slice(0, 8)}`,
    type: 'function',
    function: { name, arguments: JSON.stringify(step.args) },
  };
  say('assistant', `I'd like to call ${name} with ${toolCall.function.arguments}.`);
  // 3. Through the gate: this waits for the person in the overlay.
  const outcome = await host.run(fromOpenAIChatToolCall(toolCall, names));
  // 4. The message the app appends to the model's conversation.
  const message = toOpenAIChatToolMessage(toolCall.id, outcome);
  say('tool', message.content);
  say(
    'assistant',
    'error' in outcome ? 'Understood: I did not do that.' : 'Done. That is what the tool returned.',
  );
}

let position = 0;
const label = () => {
  const step = script[position];
  next.textContent = step ? `Send: “${step.user}”` : 'The conversation is over';
  next.disabled = !step;
};
next.addEventListener('click', async () => {
  const step = script[position++];
  if (!step) return;
  next.disabled = true;
  await turn(step);
  label();
});

host.onToolsChanged((tools) => {
  status.textContent = tools.length
    ? `Connected: the assistant may ask to use ${tools.length} tools.`
    : 'No tools yet: waiting for the demo server…';
  if (tools.length && position === 0) label();
});

// Slash commands and attachments: what the app adds to the model's conversation.
const commandPicker = document.getElementById('command') as HTMLSelectElement;
const tone = document.getElementById('tone') as HTMLInputElement;
const toneCompletions = document.getElementById('tone-completions') as HTMLDataListElement;
const attachments = document.getElementById('attachments') as HTMLUListElement;
let prompts: HostPrompt[] = [];

/** What the app would append to the model's messages, shown as the model would read its text. */
function append(messages: OpenAIChatMessage[]): void {
  for (const message of messages) {
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
    say(message.role, text);
  }
}

async function offerContext(): Promise<void> {
  prompts = await host.prompts();
  commandPicker.replaceChildren(
    ...prompts.map((prompt, index) => new Option(`/${prompt.command}`, String(index))),
  );
  // Every resource but MCP Apps' views (host.resources() leaves those out).
  const resources = await host.resources();
  attachments.replaceChildren(
    ...resources.map((offered) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      // Server text: textContent only.
      button.textContent = `Attach: ${offered.resource.title ?? offered.resource.name}`;
      button.addEventListener('click', async () => {
        try {
          const read = await offered.read();
          say('user', `(attached ${offered.resource.uri})`);
          append(toOpenAIChatMessages(read.messages));
        } catch (error) {
          say('assistant', `The attachment was not read: ${(error as Error).message}`);
        }
      });
      item.append(button);
      return item;
    }),
  );
}

// Completion as the person types; an answer to an older value is dropped.
let asked = 0;
tone.addEventListener('input', async () => {
  const prompt = prompts[Number(commandPicker.value)];
  if (!prompt) return;
  const mine = ++asked;
  const values = await prompt.complete('tone', tone.value).catch(() => []);
  if (mine !== asked) return;
  toneCompletions.replaceChildren(...values.map((value) => new Option(value)));
});

document.getElementById('prompt-form')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = prompts[Number(commandPicker.value)];
  if (!prompt) return;
  say('user', `/${prompt.command} ${tone.value}`);
  try {
    const got = await prompt.get({ tone: tone.value });
    append(toOpenAIChatMessages(got.messages));
  } catch (error) {
    say('assistant', `The command was not run: ${(error as Error).message}`);
  }
});

let offered = false;
host.onToolsChanged((tools) => {
  if (tools.length && !offered) {
    offered = true;
    void offerContext();
  }
});
