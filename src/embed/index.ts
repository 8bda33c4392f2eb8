/** The embed room's front door: the <toolgate-panel> element and mount(). */

export { defineToolgatePanel, ToolgatePanelElement } from './element.js';
export { type Mounted, type MountOptions, mount } from './mount.js';
