/**
 * One skills hub per controller, so the panel's Skills view and the host API share one registry,
 * one set of acting windows and one cache. The hub reaches connections and the audit sink through
 * the controller's services (loaded after the first paint, like the gate): a controller that only
 * mirrors one elsewhere (the extension's side panel) has no connections here, and says so.
 *
 * Typed structurally, so this room does not import the ui room above it.
 */

import type { McpClient } from '../client/client.js';
import { idbSettingsStore, type SettingsStore } from '../gate/settings-store.js';
import type { AuditSink } from '../gate/types.js';
import { SkillsHub } from './hub.js';

/** What the hub needs of a controller. */
export interface SkillsController {
  readonly servers: {
    readonly value: readonly { id: string; label: string }[];
    subscribe(listener: () => void): () => void;
  };
  readonly ready: Promise<unknown>;
}

interface SkillServices {
  clients: ReadonlyMap<string, McpClient>;
  audit: AuditSink;
}

const hubs = new WeakMap<object, Promise<SkillsHub>>();

/**
 * The controller's hub, made on first use. `store` (where approvals persist; default the origin's
 * IndexedDB settings) counts only on that first use.
 */
export function skillsHubFor(
  controller: SkillsController,
  options: { store?: SettingsStore } = {},
): Promise<SkillsHub> {
  let hub = hubs.get(controller);
  if (!hub) {
    hub = controller.ready.then((services) => {
      if (!hasSkillServices(services))
        throw new Error(
          "Skills are not available in this view: its connections run elsewhere (the extension's worker).",
        );
      const made = new SkillsHub({
        clientOf: (id) => services.clients.get(id),
        servers: () => controller.servers.value.map(({ id, label }) => ({ id, label })),
        store: options.store ?? idbSettingsStore(),
        audit: services.audit,
      });
      // Removed servers (and their cached files) go at once, not at the next look.
      controller.servers.subscribe(() => made.snapshot());
      return made;
    });
    hubs.set(controller, hub);
  }
  return hub;
}

function hasSkillServices(value: unknown): value is SkillServices {
  const services = value as Partial<SkillServices> | undefined;
  return services?.clients instanceof Map && typeof services.audit?.pending === 'function';
}
