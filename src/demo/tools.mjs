// The demo server's tools: one for each thing Toolgate shows (text, structured output, image, audio,
// resource links, embedded resources, progress, tool errors, a destructive claim, elicitation).
import { z } from 'zod';
import { chirpWav, gradientPng } from './media.mjs';

const png = gradientPng();
const wav = chirpWav();
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });

/** Registers the demo tools on an SDK 1.x McpServer. */
export function registerDemoTools(server) {
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the message you send.',
      inputSchema: { message: z.string().describe('Text to echo back') },
    },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );

  server.registerTool(
    'add',
    {
      title: 'Add numbers',
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );

  server.registerTool(
    'weather',
    {
      title: 'Weather (structured)',
      description: 'Made-up weather for a city, as structured content checked against an output schema.',
      inputSchema: { city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).default('celsius') },
      outputSchema: { city: z.string(), temperature: z.number(), unit: z.string(), conditions: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ city, unit }) => {
      const celsius = 10 + (city.length % 15);
      const report = {
        city,
        temperature: unit === 'fahrenheit' ? Math.round(celsius * 1.8 + 32) : celsius,
        unit,
        conditions: ['sunny', 'cloudy', 'rainy'][city.length % 3],
      };
      return { content: [{ type: 'text', text: JSON.stringify(report) }], structuredContent: report };
    },
  );

  server.registerTool(
    'image',
    { title: 'Image', description: 'Returns a small PNG gradient.' },
    async () => ({
      content: [
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'text', text: 'A 48×48 gradient.' },
      ],
    }),
  );

  server.registerTool('audio', { title: 'Audio', description: 'Returns a short WAV chirp.' }, async () => ({
    content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }],
  }));

  server.registerTool(
    'links',
    { title: 'Resource links', description: 'Returns links to resources.' },
    async () => ({
      content: [
        {
          type: 'resource_link',
          uri: 'https://modelcontextprotocol.io/specification',
          name: 'MCP specification',
          mimeType: 'text/html',
        },
        {
          type: 'resource_link',
          uri: 'demo://notes/readme',
          name: 'Demo notes',
          description: 'An in-server resource',
        },
      ],
    }),
  );

  server.registerTool(
    'embedded',
    { title: 'Embedded resource', description: 'Returns an embedded text resource.' },
    async () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'demo://notes/readme',
            mimeType: 'text/markdown',
            text: '# Notes\nEverything here is made up.',
          },
        },
      ],
    }),
  );

  server.registerTool(
    'countdown',
    {
      title: 'Countdown (progress)',
      description: 'Counts down, reporting progress each step; cancellable.',
      inputSchema: {
        steps: z.number().int().min(1).max(100).default(10),
        delayMs: z.number().int().min(0).max(5000).default(300),
      },
    },
    async ({ steps, delayMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await sleep(delayMs, extra.signal);
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: step,
              total: steps,
              message: `step ${step} of ${steps}`,
            },
          });
      }
      return { content: [{ type: 'text', text: `Counted down ${steps} steps.` }] };
    },
  );

  server.registerTool(
    'fail',
    { title: 'Fail', description: 'Always fails with a tool error (isError).' },
    async () => ({
      isError: true,
      content: [{ type: 'text', text: 'The demo tool failed on purpose: nothing was changed.' }],
    }),
  );

  server.registerTool(
    'delete_file',
    {
      title: 'Delete file',
      description: 'Pretends to delete a file. Marked destructive so Toolgate asks with a stronger warning.',
      inputSchema: { path: z.string() },
      annotations: { destructiveHint: true, readOnlyHint: false },
    },
    async ({ path }) => ({ content: [{ type: 'text', text: `Pretended to delete ${path}.` }] }),
  );

  server.registerTool(
    'greet',
    {
      title: 'Greet (elicitation)',
      description: 'Asks for your name through an elicitation form, then greets you.',
    },
    async () => {
      const answer = await server.server.elicitInput({
        message: 'What should the demo call you?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name', default: 'friend' },
            excited: { type: 'boolean', title: 'Excited?', default: true },
          },
          required: ['name'],
        },
      });
      if (answer.action !== 'accept')
        return { content: [{ type: 'text', text: `No greeting: you chose ${answer.action}.` }] };
      const { name, excited } = answer.content ?? {};
      return { content: [{ type: 'text', text: `Hello, ${name}${excited ? '!' : '.'}` }] };
    },
  );
}
