/**
 * The one payload every contender carries, shared by the echo server (Node) and the bench pages
 * (browser), so the floor's fixed body is byte-for-byte the size of a real echo answer.
 */

/** 256 characters: the text part of a typical small tool result (a sentence or two of output). */
export const MESSAGE = 'The quick brown fox jumps over the lazy dog. '.repeat(6).slice(0, 256);

/** The tool every client calls. */
export const TOOL = 'echo';

/** What the SDK server answers to tools/call echo(MESSAGE): the floor returns exactly this shape. */
export function echoResponse(id) {
  return { result: { content: [{ type: 'text', text: MESSAGE }] }, jsonrpc: '2.0', id };
}
