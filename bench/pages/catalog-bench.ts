/** Page side of bench/catalog.mjs: connect to a server and list its tools, timed, in Chromium. */
import { connect } from '../../src/client/connect.js';
import { createSchemaValidator } from '../../src/schema/index.js';

declare global {
  interface Window {
    connectAndList(url: string): Promise<{ ms: number; tools: number }>;
    firstValidation(url: string): Promise<{ ms: number; status: string }>;
  }
}

window.connectAndList = async (url) => {
  const started = performance.now();
  const client = await connect({ url });
  const tools = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  return { ms, tools: tools.length };
};

/** The first check of a call's arguments against the first tool's schema, as the gate makes it. */
window.firstValidation = async (url) => {
  const client = await connect({ url });
  const [tool] = await client.listTools();
  await client.close();
  const validator = createSchemaValidator();
  const started = performance.now();
  const report = await validator.validate(tool?.inputSchema ?? {}, { message: 'hi', value: 'v1' });
  return { ms: performance.now() - started, status: report.status };
};

document.body.dataset.ready = 'yes';
