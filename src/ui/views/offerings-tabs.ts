/** The Resources and Prompts tabs, one lazy chunk (panel.tsx). */
export { PromptsView } from './prompts-view.js';
export { ResourcesView } from './resources-view.js';
