/**
 * The script that runs first in an MCP App's document, before any of the app's own, and again first
 * in every inline (srcdoc) frame the app makes. It takes away what no Content Security Policy can:
 * WebRTC, which Chromium lets any page point at a STUN or TURN server of its choosing (its binding
 * requests, host name and user name carry whatever the page puts there), with no CSP directive or
 * Permissions Policy to stop it.
 *
 * Why these steps and no others (each checked in Chromium, e2e/app-reach.spec.ts):
 * - The View and every frame below it run at opaque origins of their own, so the app can reach no
 *   other realm's constructors: a frame it makes is a realm it cannot script from outside. Such a
 *   frame runs script only when the app writes its document, as `srcdoc` (a URL is refused by the
 *   View's `frame-src`, a `javascript:` URL by the origin check). So the prelude watches every tree
 *   of the document (a MutationObserver on the document and on each shadow root the app attaches)
 *   and puts itself in front of any srcdoc that lacks it. The browser loads srcdoc in a later task
 *   and the observer runs at the end of the current one, so the frame's own script never runs first.
 * - Declarative shadow roots are trees no observer can be given (a closed one is invisible to
 *   script): the host renames `shadowrootmode` in the app's HTML, and the prelude does the same for
 *   the strings its own document parses into shadow roots.
 *
 * The function is serialized into the document (`viewPreludeScript`): it must use nothing from
 * outside its own body, and it reads its own text from `document.currentScript`.
 */

import { NO_DNS_PREFETCH_META, withCspMeta } from './csp.js';

/** Runs inside the app's document. Nothing outside this body is in scope there. */
function viewPrelude(): void {
  // Everything used after the app's scripts start is taken now, and called through Reflect.apply:
  // the app may replace any prototype's method or getter (Function.prototype.call included) later.
  const apply = Reflect.apply;
  const getter = (owner: object, name: string) =>
    Object.getOwnPropertyDescriptor(owner, name)?.get as (...args: unknown[]) => unknown;
  const getAttribute = Element.prototype.getAttribute;
  const setAttribute = Element.prototype.setAttribute;
  const matches = Element.prototype.matches;
  const elementQuery = Element.prototype.querySelectorAll;
  const fragmentQuery = DocumentFragment.prototype.querySelectorAll;
  const attachShadow = Element.prototype.attachShadow;
  const observe = MutationObserver.prototype.observe;
  const nodeType = getter(Node.prototype, 'nodeType');
  const listLength = getter(NodeList.prototype, 'length');
  const listItem = NodeList.prototype.item;
  const recordType = getter(MutationRecord.prototype, 'type');
  const recordTarget = getter(MutationRecord.prototype, 'target');
  const recordAdded = getter(MutationRecord.prototype, 'addedNodes');
  const toText = String;
  const lowerCase = String.prototype.toLowerCase;
  const indexOf = String.prototype.indexOf;
  const charCodeAt = String.prototype.charCodeAt;
  const startsWith = String.prototype.startsWith;
  const slice = String.prototype.slice;
  const map = Array.prototype.map;
  const DOCUMENT = Node.DOCUMENT_NODE;
  const ELEMENT = Node.ELEMENT_NODE;
  const FRAGMENT = Node.DOCUMENT_FRAGMENT_NODE;
  const INLINE_FRAME = 'iframe[srcdoc]';
  const SHADOW_ROOT_ATTRIBUTE = 'shadowrootmode';

  const script = document.currentScript;
  const prefix = `<!doctype html><script>${script ? script.textContent : ''}</${'script'}>`;
  /** `shadowrootmode` in any ASCII case becomes `shadowroot_mode` (no regular expression: the app may replace RegExp's methods). */
  const noShadowRoots = (value: unknown): string => {
    const text = toText(value);
    if ((apply(indexOf, apply(lowerCase, text, []), [SHADOW_ROOT_ATTRIBUTE]) as number) < 0) return text;
    let result = '';
    let from = 0;
    const last = text.length - SHADOW_ROOT_ATTRIBUTE.length;
    for (let at = 0; at <= last; at++) {
      let found = true;
      for (let offset = 0; found && offset < SHADOW_ROOT_ATTRIBUTE.length; offset++) {
        // ASCII letters only, as the HTML tokenizer lowers them: OR 0x20 lowers A-Z and keeps a-z.
        const code = (apply(charCodeAt, text, [at + offset]) as number) | 0x20;
        found = code === (apply(charCodeAt, SHADOW_ROOT_ATTRIBUTE, [offset]) as number);
      }
      if (!found) continue;
      result += `${apply(slice, text, [from, at + 10]) as string}_`;
      from = at + 10;
      at += SHADOW_ROOT_ATTRIBUTE.length - 1;
    }
    return result + (apply(slice, text, [from]) as string);
  };

  // WebRTC: every constructor of it leaves this realm before the app's first script runs.
  const global = window as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(window)) if (/^(webkit)?RTC/.test(name)) delete global[name];

  const each = (list: NodeList, visit: (node: Node) => void) => {
    const length = apply(listLength, list, []) as number;
    for (let index = 0; index < length; index++) visit(apply(listItem, list, [index]) as Node);
  };
  const guard = (frame: Node) => {
    const html = apply(getAttribute, frame, ['srcdoc']) as string | null;
    if (html === null) return;
    const body = apply(startsWith, html, [prefix]) ? (apply(slice, html, [prefix.length]) as string) : html;
    const guarded = prefix + noShadowRoots(body);
    if (guarded !== html) apply(setAttribute, frame, ['srcdoc', guarded]);
  };
  const guardTree = (node: Node) => {
    const type = apply(nodeType, node, []);
    if (type === ELEMENT) {
      if (apply(matches, node, [INLINE_FRAME])) guard(node);
      each(apply(elementQuery, node, [INLINE_FRAME]) as NodeList, guard);
    } else if (type === FRAGMENT) each(apply(fragmentQuery, node, [INLINE_FRAME]) as NodeList, guard);
  };
  const watcher = new MutationObserver((records) => {
    for (let index = 0; index < records.length; index++) {
      const record = records[index] as MutationRecord;
      if (apply(recordType, record, []) === 'attributes') guard(apply(recordTarget, record, []) as Node);
      else each(apply(recordAdded, record, []) as NodeList, guardTree);
    }
  });
  const watch = (tree: Node) => {
    apply(observe, watcher, [
      tree,
      { childList: true, subtree: true, attributes: true, attributeFilter: ['srcdoc'] },
    ]);
    if (apply(nodeType, tree, []) !== DOCUMENT) guardTree(tree);
  };
  watch(document);

  Element.prototype.attachShadow = function attachWatchedShadow(this: Element, init: ShadowRootInit) {
    const root = apply(attachShadow, this, [init]) as ShadowRoot;
    watch(root);
    return root;
  };

  // The ways a string becomes markup with declarative shadow roots allowed: such a root would be a
  // tree no observer watches (a closed one is out of reach altogether), so none is made.
  const withoutShadowRoots = (owner: object, name: string, every: boolean) => {
    const original = (owner as Record<string, unknown>)[name];
    if (typeof original !== 'function') return;
    (owner as Record<string, unknown>)[name] = function parseWithoutShadowRoots(
      this: unknown,
      ...args: unknown[]
    ) {
      const cleaned = apply(map, args, [
        (arg: unknown, index: number) => (every || index === 0 ? noShadowRoots(arg) : arg),
      ]);
      return apply(original, this, cleaned as unknown[]);
    };
  };
  withoutShadowRoots(Document.prototype, 'write', true);
  withoutShadowRoots(Document.prototype, 'writeln', true);
  for (const name of ['setHTMLUnsafe', 'setHTML']) {
    withoutShadowRoots(Element.prototype, name, false);
    withoutShadowRoots(ShadowRoot.prototype, name, false);
  }
  withoutShadowRoots(Document, 'parseHTMLUnsafe', false);
  withoutShadowRoots(Document, 'parseHTML', false);
}

/**
 * The document the View is given: the policy first, DNS prefetching off, the prelude, then the app's
 * HTML with declarative shadow roots turned off.
 */
export function appDocument(html: string, policy: string): string {
  return withCspMeta(
    withoutDeclarativeShadowRoots(html),
    policy,
    `${NO_DNS_PREFETCH_META}${viewPreludeScript()}`,
  );
}

/** The prelude as the script element that goes first in the app's document. */
export function viewPreludeScript(): string {
  return `<script>(${viewPrelude.toString()})()</${'script'}>`;
}

/**
 * The app's HTML with declarative shadow roots turned off: `shadowrootmode` (in any case, wherever it
 * appears) becomes `shadowroot_mode`, an attribute that means nothing (and, in a script, a name
 * that stays a valid identifier). Textual on purpose: the browser's parser only
 * makes a shadow root where this very word is an attribute name, so no parsing here can miss one.
 */
export function withoutDeclarativeShadowRoots(html: string): string {
  return html.replace(/(shadowroot)(mode)/gi, '$1_$2');
}
