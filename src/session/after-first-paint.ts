/**
 * Resolves once the page has shown the frame being prepared now, so work started after it (fetching
 * the connection code, the gate, the log) never competes with the panel's first screen.
 *
 * On a page that has painted nothing yet (the panel is its first content), that is the first
 * contentful paint as the browser reports it: its presentation time, which comes after the frame's
 * rendering work. On a page that has painted before, two frames then a task: the second frame starts
 * only after the first was presented. Background tabs run no frames and may never paint, so a timer
 * resolves it anyway; outside a browser (tests in Node) it resolves at once.
 */
const FALLBACK_MS = 1000;

export function afterFirstPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(fallback);
      setTimeout(resolve, 0);
    };
    const fallback = setTimeout(finish, FALLBACK_MS);
    const painted = performance.getEntriesByName('first-contentful-paint').length > 0;
    const observable = PerformanceObserver.supportedEntryTypes?.includes('paint') === true;
    if (!painted && observable) {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        finish();
      });
      observer.observe({ type: 'paint', buffered: true });
      return;
    }
    requestAnimationFrame(() => requestAnimationFrame(finish));
  });
}
