/** mount(): the panel in any element, inside a shadow root so host CSS and ours never meet. */

import { h, render } from 'preact';
import { type Controller, type ControllerOptions, createController } from '../session/controller.js';
import { prefetchViews } from '../ui/lazy.js';
import { Panel, type PanelShape } from '../ui/panel.js';
import { panelStyles } from '../ui/styles.js';

export interface MountOptions extends ControllerOptions {
  /** 'panel' (default): servers, tools, activity, log. 'overlay': only the confirm step. */
  shape?: PanelShape;
  /** A controller to show instead of creating one (several views of one state). */
  controller?: Controller;
}

export interface Mounted {
  controller: Controller;
  unmount(): void;
}

/** Renders at once; the gate, the audit log and the rarer views load in the background. */
export function mount(element: HTMLElement, options: MountOptions = {}): Mounted {
  const controller = options.controller ?? createController(options);
  const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = panelStyles;
  const container = document.createElement('div');
  root.replaceChildren(style, container);
  render(h(Panel, { controller, shape: options.shape ?? 'panel' }), container);
  prefetchViews();
  return {
    controller,
    unmount() {
      render(null, container);
      root.replaceChildren();
      if (!options.controller) void controller.close();
    },
  };
}
