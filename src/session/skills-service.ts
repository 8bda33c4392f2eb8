/**
 * The controller's skills hub: one per controller, so the panel's Skills view and the host API share
 * one registry, one set of acting windows and one cache. Made on first use (the skills room is a
 * chunk of its own: an app that never asks for skills never loads it), once the connections and the
 * audit sink are ready.
 */

import type { ReadonlySignal } from '@preact/signals';
import type { McpClient } from '../client/index.js';
import type { AuditSink, SettingsStore } from '../gate/index.js';
import type { SkillsHub } from '../skills/index.js';

export interface SkillsServiceOptions {
  /** Where the person's skill approvals persist. Default: the origin's IndexedDB settings. */
  store?: SettingsStore;
}

export function createSkillsService(
  servers: ReadonlySignal<readonly { id: string; label: string }[]>,
  clients: ReadonlyMap<string, McpClient>,
  /** The sink the gate records in (skills actions go beside the calls), once it is ready. */
  audit: () => Promise<AuditSink>,
  options: SkillsServiceOptions = {},
): () => Promise<SkillsHub> {
  let hub: Promise<SkillsHub> | undefined;
  return () => {
    hub ??= Promise.all([audit(), import('../skills/hub.js'), options.store ?? originStore()]).then(
      ([sink, { SkillsHub }, store]) => {
        const made = new SkillsHub({
          clientOf: (id) => clients.get(id),
          servers: () => servers.value.map(({ id, label }) => ({ id, label })),
          store,
          audit: sink,
        });
        // Removed servers (and their cached files) go at once, not at the next look.
        servers.subscribe(() => made.snapshot());
        return made;
      },
    );
    return hub;
  };
}

/** The origin's settings store, fetched with the hub (idb-keyval stays out of the first load). */
const originStore = () =>
  import('../gate/settings-store.js').then(({ idbSettingsStore }) => idbSettingsStore());
