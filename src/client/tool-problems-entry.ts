/**
 * What the catalog loads with `import()` (tool-problems.ts). A module of its own, so that a bundle
 * where tool-problems.ts is also imported statically (the widget's tool list) does not have to build
 * a namespace object for it on the eager path.
 */
export { toolNameProblem, toolShapeProblem } from './tool-problems.js';
