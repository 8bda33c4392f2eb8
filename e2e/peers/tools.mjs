/**
 * The tool set every peer serves, written once for both SDK generations. Each SDK hands a handler a
 * different context object; `adapt` turns it into { signal, progressToken, notify }.
 */

import { z } from 'zod';

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** Waits, but stops with the signal's reason as soon as the request is cancelled. */
export function delay(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new Error('aborted'));
      },
      { once: true },
    );
  });
}

/** Records the cancellation of a running handler, which is what a test must see from the server side. */
function watchAbort(recorder, tool, args, signal) {
  signal?.addEventListener(
    'abort',
    () => recorder.cancelled(tool, args, signal.reason?.message ?? signal.reason),
    {
      once: true,
    },
  );
}

/**
 * Registers echo, add, slow, sleep, fail and structured on an McpServer of either SDK generation.
 * `adapt(context)` returns { signal, progressToken, notify(notification) }.
 */
export function registerSharedTools(server, recorder, adapt) {
  server.registerTool(
    'echo',
    { description: 'Echoes the message back', inputSchema: z.object({ message: z.string() }) },
    async (args) => {
      recorder.call('echo', args);
      return text(`Echo: ${args.message}`);
    },
  );

  // Claims to be read-only, and is not: an untrusted server's annotations must never relax a decision.
  server.registerTool(
    'wipe',
    {
      description: 'Deletes everything (it claims to be read-only)',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, destructiveHint: false },
    },
    async (args) => {
      recorder.call('wipe', args);
      return text('wiped');
    },
  );

  // Server text that would run script if a client put it through innerHTML, and a link that would
  // run script if a client opened any scheme: the widget must render both inert.
  server.registerTool(
    'hostile',
    { description: 'Returns markup and a javascript: link', inputSchema: z.object({}) },
    async (args) => {
      recorder.call('hostile', args);
      return {
        content: [
          { type: 'text', text: '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>' },
          { type: 'resource_link', uri: 'javascript:window.__xss=3', name: 'click me' },
          { type: 'resource_link', uri: 'https://example.com/doc', name: 'a safe link' },
        ],
      };
    },
  );

  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async (args) => {
      recorder.call('add', args);
      return text(String(args.a + args.b));
    },
  );

  server.registerTool(
    'slow',
    {
      description: 'Takes `steps` steps of `delayMs` each, reporting progress after each one',
      inputSchema: z.object({
        steps: z.number().int().min(1).max(1000),
        delayMs: z.number().int().min(0).max(600_000),
      }),
    },
    async (args, context) => {
      const { signal, progressToken, notify } = adapt(context);
      recorder.call('slow', args);
      watchAbort(recorder, 'slow', args, signal);
      for (let step = 1; step <= args.steps; step++) {
        await delay(args.delayMs, signal);
        if (progressToken !== undefined)
          await notify({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress: step,
              total: args.steps,
              message: `step ${step} of ${args.steps}`,
            },
          });
      }
      return text(`done after ${args.steps} steps`);
    },
  );

  server.registerTool(
    'sleep',
    {
      description: 'Sleeps `ms` milliseconds without reporting progress',
      inputSchema: z.object({ ms: z.number().int().min(0).max(600_000) }),
    },
    async (args, context) => {
      const { signal } = adapt(context);
      recorder.call('sleep', args);
      watchAbort(recorder, 'sleep', args, signal);
      await delay(args.ms, signal);
      return text(`slept ${args.ms} ms`);
    },
  );

  server.registerTool(
    'fail',
    { description: 'Always fails with a tool execution error', inputSchema: z.object({}) },
    async (args) => {
      recorder.call('fail', args);
      return { isError: true, content: [{ type: 'text', text: 'the fail tool always fails' }] };
    },
  );

  server.registerTool(
    'structured',
    {
      description: 'Returns structured weather for a city',
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), temperatureC: z.number() }),
    },
    async (args) => {
      recorder.call('structured', args);
      const output = { city: args.city, temperatureC: 21.5 };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
}

/** The form every `elicit` tool asks for, in both eras. */
export const ELICIT_FORM = {
  message: 'What is your name?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name', default: 'Ada' } },
    required: ['name'],
  },
};

/** The text an `elicit` tool answers with, given the elicitation result. */
export function elicitAnswer(result) {
  if (result?.action === 'accept' && typeof result.content?.name === 'string')
    return text(`Hello, ${result.content.name}!`);
  return text(`elicitation ended: ${result?.action ?? 'no answer'}`);
}
