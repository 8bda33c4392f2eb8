/**
 * The Resources tab: each server's resources and resource templates, searchable, in the two panes of
 * the Tools tab (list left, detail right when the panel is wide). A resource is read through the
 * gate (recorded in the audit log) and previewed safely; a template's form fills its URI variables,
 * with the server's completion as the person types; where the server supports it the person
 * subscribes and sees when an update arrives.
 */

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ReadResourceResult, Resource, ResourceTemplate } from '../../protocol/index.js';
import { type PanelController, type ServerState, serverNames } from '../../session/index.js';
import {
  ago,
  CompletingField,
  type Loader,
  matches,
  OfferingList,
  useCompletion,
  useListings,
} from './offerings-shared.js';
import { type Paged, pageThrough } from './paged-listing.js';
import { ResourcePreview } from './resource-preview.js';
import { subscriptionKey, subscriptionsOf } from './resource-subscriptions.js';
import { expandTemplate, templateVariables } from './uri-template.js';

type Offered = { resources: Resource[]; templates: ResourceTemplate[] };
type Item =
  | { kind: 'resource'; key: string; server: ServerState; resource: Resource }
  | { kind: 'template'; key: string; server: ServerState; template: ResourceTemplate };

export function ResourcesView({ controller }: { controller: PanelController }) {
  const query = useSignal('');
  const selected = useSignal<string | undefined>(undefined);
  const { servers, listings, stop } = useListings<Offered>(
    controller,
    (server) => server.offers?.resources === true,
    loadResources,
  );
  const names = serverNames(controller.servers.value);
  const items: Item[] = [];
  for (const server of servers) {
    const listing = listings[server.id];
    if (listing?.status !== 'ready') continue;
    for (const resource of listing.value.resources)
      if (matches(query.value, resource.name, resource.title, resource.uri, resource.description))
        items.push({ kind: 'resource', key: `r ${server.id} ${resource.uri}`, server, resource });
    for (const template of listing.value.templates)
      if (matches(query.value, template.name, template.title, template.uriTemplate, template.description))
        items.push({ kind: 'template', key: `t ${server.id} ${template.uriTemplate}`, server, template });
  }
  const current = items.find((item) => item.key === selected.value);
  return (
    <section class="tg-view" aria-labelledby="tg-resources-heading">
      <h2 id="tg-resources-heading">Resources</h2>
      <div class="tg-panes">
        <OfferingList
          id="tg-resource-search"
          kind="resources"
          noun={{ one: 'resource or template', many: 'resources and templates' }}
          servers={servers}
          listings={listings}
          items={items}
          query={query}
          selected={selected}
          names={names}
          stop={stop}
          row={(item) => (
            <>
              <span>{titleOf(item)}</span>
              <code class="tg-muted">
                {item.kind === 'resource' ? item.resource.uri : item.template.uriTemplate}
              </code>
              {item.kind === 'template' && <span class="tg-badge">Template</span>}
            </>
          )}
        />
        {current ? (
          <ResourceDetail key={current.key} item={current} controller={controller} />
        ) : (
          items.length > 0 && <p class="tg-pick">Pick a resource to read it, or a template to fill it in.</p>
        )}
      </div>
    </section>
  );
}

/** Resources and templates page by page, side by side: each page shows as it arrives. */
const loadResources: Loader<Offered> = async (offerings, serverId, show, signal) => {
  let resources: readonly Resource[] = [];
  let templates: readonly ResourceTemplate[] = [];
  const now = () => ({
    value: { resources: [...resources], templates: [...templates] },
    count: resources.length + templates.length,
  });
  const [listed, templated] = await Promise.all([
    pageThrough(
      async (params) => {
        const page = await offerings.listResources(serverId, params);
        return { items: page.resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      },
      (items) => {
        resources = items;
        show(now());
      },
      signal,
    ),
    // A server may offer resources but no templates: none is no error.
    pageThrough(
      async (params) => {
        const page = await offerings.listResourceTemplates(serverId, params);
        return { items: page.resourceTemplates, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      },
      (items) => {
        templates = items;
        show(now());
      },
      signal,
    ).catch((): Paged<ResourceTemplate> => ({ items: [] })),
  ]);
  resources = listed.items;
  templates = templated.items;
  const note = listed.note ?? templated.note;
  return { ...now(), ...(note ? { note } : {}) };
};

function titleOf(item: Item): string {
  const named = item.kind === 'resource' ? item.resource : item.template;
  return named.title?.trim() || named.name;
}

type ReadState =
  | { status: 'idle' }
  | { status: 'reading' }
  | { status: 'read'; uri: string; result: ReadResourceResult }
  | { status: 'failed'; error: string };

function ResourceDetail({ item, controller }: { item: Item; controller: PanelController }) {
  const offerings = controller.offerings!;
  const state = useSignal<ReadState>({ status: 'idle' });
  const values = useSignal<Record<string, string>>({});
  const template = item.kind === 'template' ? item.template.uriTemplate : undefined;
  const variables = template ? templateVariables(template) : [];
  const uri = template
    ? expandTemplate(template, values.value)
    : item.kind === 'resource'
      ? item.resource.uri
      : '';
  const missing = variables.filter((name) => !values.value[name]);
  const read = async (target: string) => {
    state.value = { status: 'reading' };
    try {
      const { result } = await offerings.readResource(item.server.id, target);
      state.value = { status: 'read', uri: target, result };
    } catch (error) {
      state.value = { status: 'failed', error: (error as Error).message ?? String(error) };
    }
  };
  const description = item.kind === 'resource' ? item.resource.description : item.template.description;
  const mimeType = item.kind === 'resource' ? item.resource.mimeType : item.template.mimeType;
  const current = state.value;
  return (
    <section class="tg-tool-detail" aria-labelledby="tg-resource-title">
      <h3 id="tg-resource-title">{titleOf(item)}</h3>
      <p class="tg-muted tg-wrap">
        <code>{template ?? uri}</code>
        {mimeType ? ` · ${mimeType}` : ''}
      </p>
      {description && <p class="tg-description">{description}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (missing.length === 0) void read(uri);
        }}
      >
        {template &&
          variables.map((name) => (
            <TemplateField
              key={name}
              controller={controller}
              serverId={item.server.id}
              template={template}
              name={name}
              values={values.value}
              onChange={(value) => {
                values.value = { ...values.value, [name]: value };
              }}
            />
          ))}
        {template && (
          <p class="tg-muted tg-wrap">
            Reads <code>{uri}</code>
          </p>
        )}
        <div class="tg-row">
          <button
            type="submit"
            class="tg-primary"
            disabled={current.status === 'reading' || missing.length > 0}
          >
            {current.status === 'reading' ? 'Reading…' : current.status === 'read' ? 'Read again' : 'Read'}
          </button>
          {item.server.offers?.subscribe && missing.length === 0 && (
            <SubscribeButton controller={controller} serverId={item.server.id} uri={uri} onReRead={read} />
          )}
        </div>
      </form>
      <div aria-live="polite">
        {current.status === 'failed' && (
          <p class="tg-error" role="alert">
            Could not read {uri}: {current.error}
          </p>
        )}
        {current.status === 'read' && <ResourcePreview result={current.result} uri={current.uri} />}
      </div>
    </section>
  );
}

function TemplateField({
  controller,
  serverId,
  template,
  name,
  values,
  onChange,
}: {
  controller: PanelController;
  serverId: string;
  template: string;
  name: string;
  values: Record<string, string>;
  onChange: (value: string) => void;
}) {
  const server = controller.servers.value.find((s) => s.id === serverId);
  const others = Object.fromEntries(Object.entries(values).filter(([key, value]) => key !== name && value));
  const suggestions = useCompletion(
    controller.offerings,
    server?.offers?.completions === true,
    serverId,
    { type: 'ref/resource', uri: template },
    name,
    values[name] ?? '',
    others,
  );
  return (
    <CompletingField
      id={`tg-template-${name}`}
      label={name}
      required
      value={values[name] ?? ''}
      suggestions={suggestions}
      onChange={onChange}
    />
  );
}

function SubscribeButton({
  controller,
  serverId,
  uri,
  onReRead,
}: {
  controller: PanelController;
  serverId: string;
  uri: string;
  onReRead: (uri: string) => void;
}) {
  const subscriptions = subscriptionsOf(controller.offerings!);
  const key = subscriptionKey(serverId, uri);
  const on = subscriptions.subscribed.value.has(key);
  const at = subscriptions.updated.value[key];
  const error = useSignal<string | undefined>(undefined);
  // "just now" turns into "a minute ago" while the person looks.
  const tick = useSignal(0);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setInterval(() => tick.value++, 30_000);
    return () => clearInterval(timer);
  }, [at]);
  void tick.value;
  const toggle = async () => {
    error.value = undefined;
    try {
      if (on) await subscriptions.unsubscribe(serverId, uri);
      else await subscriptions.subscribe(serverId, uri);
    } catch (failure) {
      error.value = (failure as Error).message ?? String(failure);
    }
  };
  return (
    <>
      <button type="button" aria-pressed={on} onClick={() => void toggle()}>
        {on ? 'Unsubscribe' : 'Subscribe'}
      </button>
      <span role="status" class="tg-muted">
        {on && (at === undefined ? 'Subscribed: no update yet' : `Updated ${ago(at)}`)}
      </span>
      {on && at !== undefined && (
        <button type="button" onClick={() => onReRead(uri)}>
          Read the update
        </button>
      )}
      {error.value && <p class="tg-error">Could not change the subscription: {error.value}</p>}
    </>
  );
}
