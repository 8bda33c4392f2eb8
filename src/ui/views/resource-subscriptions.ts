/**
 * The person's resource subscriptions, kept per controller across tab switches (leaving the tab does
 * not unsubscribe): which URIs are subscribed and when an update about each last arrived.
 */

import { type Signal, signal } from '@preact/signals';
import type { SessionOfferings } from '../../session/index.js';

interface Subscriptions {
  /** `serverId\nuri` of each subscribed resource. */
  readonly subscribed: Signal<ReadonlySet<string>>;
  /** When the last update about each arrived (ms), by `serverId\nuri`. */
  readonly updated: Signal<Readonly<Record<string, number>>>;
  subscribe(serverId: string, uri: string): Promise<void>;
  unsubscribe(serverId: string, uri: string): Promise<void>;
}

export const subscriptionKey = (serverId: string, uri: string) => `${serverId}\n${uri}`;

const kept = new WeakMap<SessionOfferings, Subscriptions>();

export function subscriptionsOf(offerings: SessionOfferings): Subscriptions {
  const existing = kept.get(offerings);
  if (existing) return existing;
  const subscribed = signal<ReadonlySet<string>>(new Set());
  const updated = signal<Readonly<Record<string, number>>>({});
  const listening = new Map<string, () => void>();
  const made: Subscriptions = {
    subscribed,
    updated,
    async subscribe(serverId, uri) {
      // Listen first: an update that follows the subscription at once must not be missed.
      if (!listening.has(serverId))
        listening.set(
          serverId,
          offerings.onUpdated(serverId, (changed) => {
            const key = subscriptionKey(serverId, changed);
            if (subscribed.value.has(key)) updated.value = { ...updated.value, [key]: Date.now() };
          }),
        );
      subscribed.value = new Set([...subscribed.value, subscriptionKey(serverId, uri)]);
      try {
        await offerings.subscribe(serverId, uri);
      } catch (error) {
        const next = new Set(subscribed.value);
        next.delete(subscriptionKey(serverId, uri));
        subscribed.value = next;
        throw error;
      }
    },
    async unsubscribe(serverId, uri) {
      const next = new Set(subscribed.value);
      next.delete(subscriptionKey(serverId, uri));
      subscribed.value = next;
      await offerings.unsubscribe(serverId, uri);
    },
  };
  kept.set(offerings, made);
  return made;
}
