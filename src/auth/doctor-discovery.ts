/**
 * What the connection doctor (client/doctor) reads of authorization, step by step: the challenge of
 * a 401, the protected-resource metadata, the authorization server's metadata. The same functions
 * sign-in uses, so the doctor sees what sign-in would see; loaded only when someone diagnoses.
 */

export { discoverAuthorizationServer } from './authorization-server.js';
export { TOKEN_REFUSED_AGAIN } from './errors.js';
export { DiscoveryProblem, discoverResourceMetadata } from './resource-metadata.js';
export { protectedResourceMetadataUrls } from './urls.js';
export { bearerChallenge } from './www-authenticate.js';
