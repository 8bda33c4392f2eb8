/**
 * Site access kept in memory for unit tests (the extension keeps it in IndexedDB, which the e2e
 * suite exercises). Every save is recorded, so a test sees what would have been written.
 */

import type { Refusal, SiteAccessStore, SiteGrant } from '../../extension/site-access.js';

export interface MemoryAccessStore extends SiteAccessStore {
  savedGrants: SiteGrant[][];
  savedRefusals: Refusal[][];
}

export function memoryAccessStore(grants: SiteGrant[] = [], refusals: Refusal[] = []): MemoryAccessStore {
  const savedGrants: SiteGrant[][] = [];
  const savedRefusals: Refusal[][] = [];
  return {
    savedGrants,
    savedRefusals,
    load: async () => grants,
    save: async (next) => void savedGrants.push(next),
    loadRefusals: async () => refusals,
    saveRefusals: async (next) => void savedRefusals.push(next),
  };
}
