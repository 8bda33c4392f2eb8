/**
 * Notices the person dismissed, by id, in chrome.storage.local: a notice closed once stays closed
 * in every extension page and after the panel is opened again. An id names one situation ("turn on
 * this site"), so a new situation (another site) is a new notice.
 */

/** chrome.storage.local key: the ids of the notices the person dismissed. */
const DISMISSED_NOTICES_KEY = 'dismissed-notices';

async function dismissedNotices(): Promise<string[]> {
  const value = (await chrome.storage.local.get(DISMISSED_NOTICES_KEY))[DISMISSED_NOTICES_KEY];
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** Remembers that the person dismissed the notice `id`. */
export async function dismissNotice(id: string): Promise<void> {
  const now = await dismissedNotices();
  if (!now.includes(id)) await chrome.storage.local.set({ [DISMISSED_NOTICES_KEY]: [...now, id] });
}

/** Calls back with the dismissed ids now and after every change; returns the unsubscribe. */
export function watchDismissedNotices(callback: (ids: string[]) => void): () => void {
  let stopped = false;
  const read = () =>
    void dismissedNotices().then((ids) => {
      if (!stopped) callback(ids);
    });
  const onChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === 'local' && DISMISSED_NOTICES_KEY in changes) read();
  };
  read();
  chrome.storage.onChanged.addListener(onChanged);
  return () => {
    stopped = true;
    chrome.storage.onChanged.removeListener(onChanged);
  };
}
