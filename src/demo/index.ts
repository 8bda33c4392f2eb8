/** The demo room's front door: the demo servers' tools and app, for tests that run them. */

export { registerDemoApp } from './counter-app.mjs';
export { registerDemoTools } from './tools.mjs';
