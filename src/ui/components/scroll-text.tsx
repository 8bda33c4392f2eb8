/**
 * Text shown whole in a box that scrolls when it is long. The box takes focus, so a keyboard user
 * can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */

import type { ComponentChildren } from 'preact';

export function ScrollText({ children, class: className }: { children: ComponentChildren; class?: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled with the keyboard.
    <pre class={className ? `${className} tg-scroll` : 'tg-scroll'} tabIndex={0} dir="ltr">
      {children}
    </pre>
  );
}
