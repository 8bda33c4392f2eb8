/**
 * <toolgate-panel>: the widget as a custom element. Attributes: `servers` (space-separated MCP
 * endpoint URLs), `shape` ("panel" or "overlay"), `theme` ("light", "dark"; default follows the
 * system), `audit-name` (the IndexedDB log's name), `collector` (an OpenTelemetry collector's
 * OTLP/HTTP URL: the audit log is exported there), `collector-service-name` (its service.name) and
 * `trace-context` ("start": every call carries a new W3C trace). Or set the `options` property
 * before it is connected (`options.otlp` for headers and the rest; the attributes win over it). The
 * `ready` property resolves to the controller once mounted.
 */

import type { OtlpExport, OtlpExportOptions } from '../audit/index.js';

import type { Controller } from '../session/index.js';
import type { PanelShape } from '../ui/index.js';
import { type Mounted, type MountOptions, mount } from './mount.js';

export class ToolgatePanelElement extends HTMLElement {
  private mountOptions: MountOptions = {};
  private mounted: Mounted | undefined;
  private resolveReady: (controller: Controller) => void = () => undefined;
  private currentReady: Promise<Controller> = this.pendingReady();

  constructor() {
    super();
    // A page may set `options` before the element is defined; that value sits on the instance
    // and would hide the accessor. Take it over (the usual custom-element upgrade dance).
    if (Object.hasOwn(this, 'options')) {
      const early = (this as unknown as { options: MountOptions }).options;
      delete (this as unknown as { options?: MountOptions }).options;
      this.options = early;
    }
  }

  /** Options for mount(); read when the element is connected. */
  get options(): MountOptions {
    return this.mountOptions;
  }

  set options(value: MountOptions) {
    this.mountOptions = value ?? {};
  }

  /**
   * Resolves to the controller of the panel's current session. A move in the DOM keeps the session;
   * after the element was removed (and its session closed), re-adding it starts a new one and
   * `ready` then resolves to that.
   */
  get ready(): Promise<Controller> {
    return this.currentReady;
  }

  private pendingReady(): Promise<Controller> {
    return new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  get controller(): Controller | undefined {
    return this.mounted?.controller;
  }

  /** The audit log's OpenTelemetry export while mounted (undefined without a collector). */
  otlpExport(): Promise<OtlpExport | undefined> {
    return this.mounted?.otlpExport() ?? Promise.resolve(undefined);
  }

  connectedCallback(): void {
    if (this.mounted) return;
    const urls = (this.getAttribute('servers') ?? '').split(/\s+/).filter(Boolean);
    const shape = (this.getAttribute('shape') ?? this.options.shape ?? 'panel') as PanelShape;
    const auditName = this.getAttribute('audit-name') ?? this.options.auditName;
    // The collector attributes over options.otlp (the key and the rest stay in options).
    const collector = this.getAttribute('collector');
    const serviceName = this.getAttribute('collector-service-name');
    const otlp = (collector || this.options.otlp) && {
      ...this.options.otlp,
      ...(collector ? { url: collector } : {}),
      ...(serviceName ? { serviceName } : {}),
    };
    this.mounted = mount(this, {
      ...this.options,
      shape,
      ...(auditName ? { auditName } : {}),
      ...(otlp ? { otlp: otlp as OtlpExportOptions } : {}),
      ...(this.getAttribute('trace-context') === 'start' ? { traceContext: 'start' as const } : {}),
      servers: [...(this.options.servers ?? []), ...urls.map((url) => ({ url }))],
    });
    this.resolveReady(this.mounted.controller);
  }

  disconnectedCallback(): void {
    // A move (appendChild elsewhere) disconnects and reconnects in the same task: keep the session,
    // its connections and its waiting approvals. Only an element still out of the document a
    // microtask later was really removed.
    queueMicrotask(() => {
      if (this.isConnected || !this.mounted) return;
      this.mounted.unmount();
      this.mounted = undefined;
      this.currentReady = this.pendingReady();
    });
  }
}

/** Registers <toolgate-panel> once (safe to call again, e.g. from two bundles). */
export function defineToolgatePanel(name = 'toolgate-panel'): void {
  if (!customElements.get(name)) customElements.define(name, ToolgatePanelElement);
}

// So `document.querySelector('toolgate-panel')` is typed as the element, under its default name.
declare global {
  interface HTMLElementTagNameMap {
    'toolgate-panel': ToolgatePanelElement;
  }
}
