/**
 * What a page does before its first result, with Toolgate: connect (auto era), list, call. This is
 * both the size entry (its minified, gzipped bundle is the library cost a page pays) and the
 * navigation-to-first-result script.
 */
import { connect } from '../../src/index.js';

/** Connects to `url`, lists the tools and calls echo once. */
export async function firstResult(url: string, message: string): Promise<unknown> {
  const client = await connect({ url });
  await client.listTools();
  return client.callTool('echo', { message });
}
