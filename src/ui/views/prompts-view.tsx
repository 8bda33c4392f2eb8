/**
 * The Prompts tab: each server's prompts, searchable, in two panes like the Tools tab. A prompt's
 * arguments are a small form (required ones marked, the server's completion as the person types);
 * Get runs `prompts/get` through the gate (recorded in the audit log) and shows the messages it
 * returns (role, text, images through the safe-media allow-list, embedded resources), with Copy.
 */

import { useSignal } from '@preact/signals';
import type { CallToolResult, GetPromptResult, Prompt, PromptArgument } from '../../protocol/index.js';
import { type PanelController, type ServerState, serverNames } from '../../session/index.js';
import { CopyButton } from '../components/copy-button.js';
import { ResultView } from '../components/result-view.js';
import {
  CompletingField,
  type Loader,
  matches,
  OfferingList,
  useCompletion,
  useListings,
} from './offerings-shared.js';
import { pageThrough } from './paged-listing.js';

type Item = { key: string; server: ServerState; prompt: Prompt };

export function PromptsView({ controller }: { controller: PanelController }) {
  const query = useSignal('');
  const selected = useSignal<string | undefined>(undefined);
  const { servers, listings, stop } = useListings(
    controller,
    (server) => server.offers?.prompts === true,
    loadPrompts,
  );
  const names = serverNames(controller.servers.value);
  const items: Item[] = [];
  for (const server of servers) {
    const listing = listings[server.id];
    if (listing?.status !== 'ready') continue;
    for (const prompt of listing.value)
      if (matches(query.value, prompt.name, prompt.title, prompt.description))
        items.push({ key: `${server.id} ${prompt.name}`, server, prompt });
  }
  const current = items.find((item) => item.key === selected.value);
  return (
    <section class="tg-view" aria-labelledby="tg-prompts-heading">
      <h2 id="tg-prompts-heading">Prompts</h2>
      <div class="tg-panes">
        <OfferingList
          id="tg-prompt-search"
          kind="prompts"
          noun={{ one: 'prompt', many: 'prompts' }}
          servers={servers}
          listings={listings}
          items={items}
          query={query}
          selected={selected}
          names={names}
          stop={stop}
          row={(item) => (
            <>
              <span>{item.prompt.title?.trim() || item.prompt.name}</span>
              {item.prompt.description && <span class="tg-muted">{item.prompt.description}</span>}
            </>
          )}
        />
        {current ? (
          <PromptDetail key={current.key} item={current} controller={controller} />
        ) : (
          items.length > 0 && <p class="tg-pick">Pick a prompt to fill in its arguments and get it.</p>
        )}
      </div>
    </section>
  );
}

/** Prompts page by page: each page shows as it arrives. */
const loadPrompts: Loader<readonly Prompt[]> = async (offerings, serverId, show, signal) => {
  const { items, note } = await pageThrough(
    async (params) => {
      const page = await offerings.listPrompts(serverId, params);
      return { items: page.prompts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
    (items) => show({ value: items, count: items.length }),
    signal,
  );
  return { value: items, count: items.length, ...(note ? { note } : {}) };
};

type GetState =
  | { status: 'idle' }
  | { status: 'getting' }
  | { status: 'got'; result: GetPromptResult }
  | { status: 'failed'; error: string };

function PromptDetail({ item, controller }: { item: Item; controller: PanelController }) {
  const { prompt, server } = item;
  const values = useSignal<Record<string, string>>({});
  const state = useSignal<GetState>({ status: 'idle' });
  const args = prompt.arguments ?? [];
  const missing = args.filter((arg) => arg.required && !values.value[arg.name]);
  const get = async () => {
    state.value = { status: 'getting' };
    const given = Object.fromEntries(Object.entries(values.value).filter(([, value]) => value !== ''));
    try {
      const { result } = await controller.offerings!.getPrompt(server.id, prompt.name, given);
      state.value = { status: 'got', result };
    } catch (error) {
      state.value = { status: 'failed', error: (error as Error).message ?? String(error) };
    }
  };
  const current = state.value;
  return (
    <section class="tg-tool-detail" aria-labelledby="tg-prompt-title">
      <h3 id="tg-prompt-title">{prompt.title?.trim() || prompt.name}</h3>
      <p class="tg-muted">
        <code>{prompt.name}</code>
      </p>
      {prompt.description && <p class="tg-description">{prompt.description}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (missing.length === 0) void get();
        }}
      >
        {args.length === 0 && <p class="tg-muted">This prompt takes no arguments.</p>}
        {args.map((arg) => (
          <ArgumentField
            key={arg.name}
            controller={controller}
            server={server}
            prompt={prompt.name}
            arg={arg}
            values={values.value}
            onChange={(value) => {
              values.value = { ...values.value, [arg.name]: value };
            }}
          />
        ))}
        <div class="tg-row">
          <button
            type="submit"
            class="tg-primary"
            disabled={current.status === 'getting' || missing.length > 0}
          >
            {current.status === 'getting' ? 'Getting…' : 'Get'}
          </button>
          {current.status === 'got' && (
            <CopyButton label="Copy the messages" text={() => messagesAsText(current.result)}>
              Copy
            </CopyButton>
          )}
        </div>
      </form>
      <div aria-live="polite">
        {current.status === 'failed' && (
          <p class="tg-error" role="alert">
            Could not get {prompt.name}: {current.error}
          </p>
        )}
        {current.status === 'got' && <PromptMessages result={current.result} source={server.label} />}
      </div>
    </section>
  );
}

function ArgumentField({
  controller,
  server,
  prompt,
  arg,
  values,
  onChange,
}: {
  controller: PanelController;
  server: ServerState;
  prompt: string;
  arg: PromptArgument;
  values: Record<string, string>;
  onChange: (value: string) => void;
}) {
  const others = Object.fromEntries(
    Object.entries(values).filter(([key, value]) => key !== arg.name && value),
  );
  const suggestions = useCompletion(
    controller.offerings,
    server.offers?.completions === true,
    server.id,
    { type: 'ref/prompt', name: prompt },
    arg.name,
    values[arg.name] ?? '',
    others,
  );
  return (
    <CompletingField
      id={`tg-prompt-arg-${arg.name}`}
      label={arg.title?.trim() || arg.name}
      required={arg.required === true}
      {...(arg.description ? { description: arg.description } : {})}
      value={values[arg.name] ?? ''}
      suggestions={suggestions}
      onChange={onChange}
    />
  );
}

function PromptMessages({ result, source }: { result: GetPromptResult; source: string }) {
  return (
    <section class="tg-prompt-messages" aria-label="Prompt messages">
      {result.description && <p class="tg-description">{result.description}</p>}
      {result.messages.length === 0 && <p class="tg-muted">The prompt returned no messages.</p>}
      <ol class="tg-offer-list">
        {result.messages.map((message, index) => (
          <li key={index} class="tg-prompt-message">
            <h4>{message.role === 'user' ? 'User' : 'Assistant'}</h4>
            <ResultView
              result={{ content: [message.content] } as CallToolResult}
              source={{ server: source, tool: 'prompt' }}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The messages as plain text, for Copy: "role: text" per message, other content named by kind. */
function messagesAsText(result: GetPromptResult): string {
  return result.messages
    .map((message) => {
      const content = message.content as {
        type?: string;
        text?: string;
        resource?: { uri?: string; text?: string };
      };
      const body =
        content.type === 'text'
          ? (content.text ?? '')
          : content.type === 'resource'
            ? (content.resource?.text ?? `[resource ${content.resource?.uri ?? ''}]`)
            : `[${content.type ?? 'content'}]`;
      return `${message.role}: ${body}`;
    })
    .join('\n\n');
}
