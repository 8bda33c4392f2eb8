/** The ui room's front door: the panel, its styles and the components the extension reuses. */

export { escapeHidden } from './components/hidden-characters.js';
export { ModalDialog } from './components/modal-dialog.js';
export { ToolName, visibleToolName } from './components/tool-name.js';
export type { ConnectionFix, DoctorAccess } from './connection-fix.js';
export { prefetchViews } from './lazy.js';
export { Panel, type PanelShape } from './panel.js';
export { panelStyles } from './styles.js';
