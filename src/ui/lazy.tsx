/**
 * Views that most visits never open (the approval dialog before the first call, results, the audit
 * log) are separate chunks, so the widget's first load stays small. `lazyView` renders a
 * placeholder (grey lines, announced as loading) until its chunk is in; `prefetchViews` pulls every
 * chunk in once the browser is idle, so the first approval dialog still opens at once.
 */

import type { ComponentType, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { afterFirstPaint } from '../session/index.js';

type Loader<P> = () => Promise<ComponentType<P>>;

/** The shared components' CSS (forms, JSON trees, results): only lazy views use those components. */
const componentStyles = () => import('./components/components.css.js').then((m) => m.componentStyles);

const loaders: Array<() => Promise<unknown>> = [];

export function lazyView<P extends object>(load: Loader<P>): (props: P) => JSX.Element | null {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetch = () => {
    loading ??= Promise.all([load(), componentStyles()]).then(
      ([View, css]) => {
        loaded = function Styled(props: P) {
          return (
            <>
              <style>{css}</style>
              <View {...props} />
            </>
          );
        };
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  loaders.push(fetch);
  return function LazyView(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failure, setFailure] = useState<string>();
    useEffect(() => {
      if (component) return;
      let live = true;
      fetch().then(
        (value) => live && setComponent(() => value),
        (error: unknown) =>
          live &&
          setFailure(`Toolgate could not load this view (${String(error)}). Reload the page to try again.`),
      );
      return () => {
        live = false;
      };
    }, [component]);
    if (failure)
      return (
        <p class="tg-error" role="alert">
          {failure}
        </p>
      );
    // Grey lines where the view will be, so a tab never opens blank; named for assistive technology.
    if (!component)
      return (
        <div class="tg-placeholder" role="status">
          <span class="tg-visually-hidden">Loading…</span>
          <i />
          <i />
          <i />
        </div>
      );
    const View = component;
    return <View {...props} />;
  };
}

/**
 * Loads every lazy view when the page is idle after the panel's first screen (a failed load is
 * retried when the view is opened). Idle alone is not enough: on a busy machine the browser may find
 * idle time before it presents the first frame, and the views would compete with the first screen.
 */
export function prefetchViews(): void {
  const run = () => {
    for (const load of loaders) load().catch(() => undefined);
  };
  void afterFirstPaint().then(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  });
}
