/**
 * What url-secrets-loader.ts loads with `import()`. A module of its own, so that a bundle where
 * url-secrets.ts is also imported statically (the widget's first screen) does not have to build a
 * namespace object for it on the eager path.
 */
export { redactUrl, redactUrlsInText, secretsInUrl } from './url-secrets.js';
