// The demo server's prompt and resource, for the host API's example (examples/agent/): a prompt a
// web app offers as a slash command (with completion of its argument) whose messages embed a
// resource, and a resource the app attaches as context.
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';

export const RELEASE_NOTES_URI = 'demo://notes/release-plan.md';
const RELEASE_NOTES = [
  '# Release plan',
  '',
  '- Freeze the API on Monday.',
  '- Ship the widget to the beta channel on Wednesday.',
  '- Announce on Friday.',
].join('\n');
const TONES = ['friendly', 'formal', 'brief'];

/** Registers the demo prompt and resource on an SDK 1.x McpServer. */
export function registerDemoOfferings(server) {
  server.registerResource(
    'release-plan',
    RELEASE_NOTES_URI,
    { title: 'Release plan', description: 'The team’s release plan, as notes.', mimeType: 'text/markdown' },
    async () => ({ contents: [{ uri: RELEASE_NOTES_URI, mimeType: 'text/markdown', text: RELEASE_NOTES }] }),
  );

  server.registerPrompt(
    'summarize',
    {
      title: 'Summarize the release plan',
      description: 'Asks for a summary of the release plan in the tone you choose.',
      argsSchema: {
        tone: completable(z.string().describe('friendly, formal or brief'), (value) =>
          TONES.filter((tone) => tone.startsWith(value.toLowerCase())),
        ),
      },
    },
    ({ tone }) => ({
      description: `A ${tone} summary of the release plan`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarize this plan in a ${tone} tone.` } },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: RELEASE_NOTES_URI, mimeType: 'text/markdown', text: RELEASE_NOTES },
          },
        },
      ],
    }),
  );
}
