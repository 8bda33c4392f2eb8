/**
 * The free names of the manual's examples, for the compiler (test/docs/examples.test.ts). Their
 * types, and what each stands for, are in world.ts, which the e2e run fills with real values.
 */
import type { DocWorld } from './world.js';

declare global {
  const panel: DocWorld['panel'];
  const host: DocWorld['host'];
  const call: DocWorld['call'];
  const openai: DocWorld['openai'];
  const model: DocWorld['model'];
  const messages: DocWorld['messages'];
  const reply: DocWorld['reply'];
  const askPerson: DocWorld['askPerson'];
  const abortController: DocWorld['abortController'];
  const token: DocWorld['token'];
  const collectorKey: DocWorld['collectorKey'];
  const pemFromYourVault: DocWorld['pemFromYourVault'];
  const element: DocWorld['element'];
  const keptHead: DocWorld['keptHead'];
  const keptKey: DocWorld['keptKey'];
  const span: DocWorld['span'];
  const chat: DocWorld['chat'];
  const context: DocWorld['context'];
  const message: DocWorld['message'];
  const toolgate: DocWorld['toolgate'];
}
