/**
 * Deep links to the demo: `?server=<url>` (repeatable; `&name=<name>` names the server and
 * `&transport=streamable-http|http|sse` chooses its HTTP transport, each in the same position)
 * offers to add those servers. A link is anyone's to write, so nothing connects before the
 * person says so: a dialog names each server and the origin it would reach, and only http: and
 * https: addresses are offered (any other scheme is named as refused). Servers already in the panel
 * are not asked about again. The query is then cleared, so a reload does not ask twice (added
 * servers are kept by the panel).
 */
import type { Controller, ServerConfig } from '../widget.js';

interface Offer {
  url: URL;
  name: string;
  /** Chosen by the link, else detected when connecting. */
  httpTransport?: 'streamable-http' | 'sse';
}

/**
 * The transport names links and configurations use: `sse` is the 2024-11-05 HTTP+SSE transport;
 * `streamable-http` (the registry's and the SDKs' name) and `http` (VS Code's and Claude Code's)
 * are Streamable HTTP. Anything else leaves the choice to detection.
 */
export function linkedTransport(text: string | undefined): Offer['httpTransport'] {
  const name = text?.trim().toLowerCase();
  if (name === 'sse') return 'sse';
  if (name === 'streamable-http' || name === 'http' || name === 'streamablehttp') return 'streamable-http';
  return undefined;
}

function transportOf(text: string | undefined): Pick<Offer, 'httpTransport'> {
  const httpTransport = linkedTransport(text);
  return httpTransport ? { httpTransport } : {};
}

/** The servers a link names, split into those that may be offered and those refused (with why). */
export function readLinkedServers(search: string): { offers: Offer[]; refused: string[] } {
  const params = new URLSearchParams(search);
  const names = params.getAll('name');
  const transports = params.getAll('transport');
  const offers: Offer[] = [];
  const refused: string[] = [];
  for (const [index, text] of params.getAll('server').entries()) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      refused.push(`“${text.slice(0, 80)}” is not an address`);
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      refused.push(`“${url.protocol}” addresses are not servers (only http: and https:)`);
      continue;
    }
    offers.push({
      url,
      name: (names[index] ?? '')
        .replace(/\p{Cc}/gu, ' ')
        .trim()
        .slice(0, 80),
      ...transportOf(transports[index]),
    });
  }
  return { offers, refused };
}

/** Asks the person about the servers the page's link names, and adds those they accept. */
export async function offerLinkedServers(
  controller: Controller,
  prepare: (config: ServerConfig) => ServerConfig,
): Promise<void> {
  const { offers, refused } = readLinkedServers(location.search);
  const known = new Set(controller.servers.value.map((server) => server.config.url));
  const fresh = offers.filter((offer) => !known.has(offer.url.href));
  clearQuery();
  if (fresh.length === 0 && refused.length === 0) return;
  if (await ask(fresh, refused))
    for (const offer of fresh)
      void controller
        .addServer(
          prepare({
            url: offer.url.href,
            ...(offer.name ? { label: offer.name } : {}),
            ...(offer.httpTransport ? { httpTransport: offer.httpTransport } : {}),
          }),
        )
        .catch(() => undefined);
}

function clearQuery(): void {
  const url = new URL(location.href);
  url.searchParams.delete('server');
  url.searchParams.delete('name');
  url.searchParams.delete('transport');
  history.replaceState(history.state, '', url);
}

/** The dialog: text only (a link's words are never markup). Resolves true when the person adds. */
function ask(offers: Offer[], refused: string[]): Promise<boolean> {
  const dialog = document.createElement('dialog');
  dialog.className = 'demo-link-offer';
  dialog.setAttribute('aria-labelledby', 'demo-link-title');
  const title = element(
    'h2',
    offers.length ? 'Add servers from this link?' : 'This link names no server to add',
  );
  title.id = 'demo-link-title';
  dialog.append(title);
  if (offers.length) {
    dialog.append(
      element(
        'p',
        'The link you opened asks to add these servers. Toolgate connects to them only if you add them; add only servers you trust.',
      ),
    );
    const list = document.createElement('ul');
    for (const offer of offers) {
      const item = document.createElement('li');
      if (offer.name) item.append(element('strong', offer.name), ' ');
      const over = offer.httpTransport === 'sse' ? ' over HTTP+SSE' : '';
      item.append(element('code', offer.url.href), ` (connects to ${offer.url.origin}${over})`);
      list.append(item);
    }
    dialog.append(list);
  }
  if (refused.length) dialog.append(element('p', `Not offered: ${refused.join('; ')}.`));
  const buttons = document.createElement('p');
  const add = element('button', offers.length === 1 ? 'Add server' : `Add ${offers.length} servers`);
  const no = element('button', offers.length ? 'Not now' : 'Close');
  if (offers.length) buttons.append(add, ' ');
  buttons.append(no);
  dialog.append(buttons);
  document.body.append(dialog);
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    add.addEventListener('click', () => done(true));
    no.addEventListener('click', () => done(false));
    dialog.addEventListener('cancel', () => done(false));
    dialog.showModal();
    // The safe choice has focus: Enter on arrival does not connect.
    no.focus();
  });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  if (node instanceof HTMLButtonElement) node.type = 'button';
  return node;
}
