/**
 * The round-trip page: tools/call over HTTP (floor, official SDK client, Toolgate; JSON and SSE
 * responses) and over postMessage (Toolgate against a raw transferred MessagePort), all measured
 * in this page and reported as one object.
 */

import { connect } from '../../src/index.js';
import { PostMessageClientTransport } from '../../src/transport/post-message.js';
import { type echoResponse, TOOL } from '../payload.mjs';
import { args, instantContenders, plainFetch, sdk, toolgate, verified } from './contenders.js';
import { type Contender, measure, type Plan, reportAndContinue, reportFailure } from './measure.js';

const query = new URL(location.href).searchParams;
const step = Number(query.get('step') ?? 0);
const number = (name: string, fallback: number) => Number(query.get(name) ?? fallback);
const plan: Plan = {
  warmup: number('warmup', 200),
  rounds: number('rounds', 10),
  sequentialPerRound: number('seq', 100),
  burstPerRound: number('burst', 400),
  inFlight: number('inflight', 16),
};
// Another site (localhost against 127.0.0.1): the frame gets its own renderer process, as a real
// third-party MCP App frame would. `frame=0` skips the postMessage part.
const frameOrigin = query.get('frame') === '0' ? null : `http://localhost:${location.port}`;
const status = document.getElementById('status');
const progress = (what: string) => {
  if (status) status.textContent = what;
};

/** Loads the echo frame (another origin, so another renderer process) and waits for it to say ready. */
async function loadFrame(origin: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  const ready = new Promise<void>((resolve) => {
    const onReady = (event: MessageEvent) => {
      if (event.origin !== origin || (event.data as { bench?: unknown })?.bench !== 'frame-ready') return;
      removeEventListener('message', onReady);
      resolve();
    };
    addEventListener('message', onReady);
  });
  frame.src = `${origin}/bench/pm-frame.html?parent=${encodeURIComponent(location.origin)}`;
  document.body.append(frame);
  await ready;
  return frame;
}

/** Toolgate over postMessage: handshake, then connect() over the port transport, then callTool. */
async function toolgatePostMessage(
  name: string,
  frame: HTMLIFrameElement,
  origin: string,
): Promise<Contender> {
  const transport = new PostMessageClientTransport({ frame, targetOrigin: origin });
  const client = await connect({ transport, id: 'frame' });
  await client.listTools();
  return { name, call: () => client.callTool(TOOL, args) };
}

/**
 * The raw baseline: a MessagePort transferred to the frame, carrying the same request object and
 * the same answer, matched by id as any multiplexing client must.
 */
async function rawPort(name: string, frame: HTMLIFrameElement, origin: string): Promise<Contender> {
  const { port1, port2 } = new MessageChannel();
  const waiting = new Map<number, (value: unknown) => void>();
  port1.onmessage = (event: MessageEvent) => {
    const answer = event.data as ReturnType<typeof echoResponse>;
    const resolve = waiting.get(answer.id as number);
    waiting.delete(answer.id as number);
    resolve?.(answer.result);
  };
  await new Promise<void>((resolve) => {
    waiting.set(0, () => resolve());
    frame.contentWindow!.postMessage({ bench: 'raw-port' }, origin, [port2]);
  });
  let id = 0;
  return {
    name,
    call: () =>
      new Promise((resolve) => {
        const current = ++id;
        waiting.set(current, resolve);
        port1.postMessage({
          jsonrpc: '2.0',
          id: current,
          method: 'tools/call',
          params: { name: TOOL, arguments: args },
        });
      }),
  };
}

async function main(): Promise<void> {
  progress('connecting');
  const http = await Promise.all([
    verified(plainFetch('floor', '/floor', false)),
    verified(plainFetch('floor-sse', '/floor-sse', true)),
    verified(plainFetch('plain-json', '/json', false)),
    verified(plainFetch('plain-sse', '/sse', true)),
    verified(await sdk('sdk-json', '/json')),
    verified(await toolgate('toolgate-json', '/json')),
    verified(await sdk('sdk-sse', '/sse')),
    verified(await toolgate('toolgate-sse', '/sse')),
  ]);
  const httpResults = await measure(http, plan, progress);
  progress('instant fetch');
  const instantResults = await measure(await instantContenders(), plan, progress);

  let postMessageResults = {};
  if (frameOrigin) {
    progress('loading the postMessage frame');
    const frame = await loadFrame(frameOrigin);
    const pm = [
      await verified(await rawPort('raw-port', frame, frameOrigin)),
      await verified(await toolgatePostMessage('toolgate-postmessage', frame, frameOrigin)),
    ];
    postMessageResults = await measure(pm, plan, progress);
  }
  progress('done');
  await reportAndContinue(step, 'rtt', {
    plan,
    crossOriginIsolated,
    userAgent: navigator.userAgent,
    http: httpResults,
    instant: instantResults,
    postMessage: postMessageResults,
  });
}

main().catch((error: unknown) => reportFailure(step, error));
