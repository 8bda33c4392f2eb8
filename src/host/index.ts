/** The host-app API and the model-format adapters. */
export * from './adapters/index.js';
export {
  createToolgateHost,
  type HostEvent,
  type HostToolCall,
  type ToolgateHost,
  type ToolgateHostOptions,
} from './host.js';
