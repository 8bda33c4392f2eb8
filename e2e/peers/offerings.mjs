/**
 * Resources, a resource template with completion, and a prompt with a completable argument, the
 * same on the SDK 1.x and 2.x peers (their McpServer APIs agree on these). Offered only with
 * `--offerings` (e2e/resources-prompts.spec.ts), so other specs keep the capabilities they expect.
 *
 *   note://welcome         text/plain, "Welcome to Toolgate"
 *   note://logo            image/png, a 1x1 PNG as a base64 blob
 *   note://config          text with a credential in it (the audit log must not keep it)
 *   note://notes/{name}    a template; `name` completes from NOTE_NAMES
 *   greet(who)             a prompt; `who` completes from PEOPLE
 * and server icons (SERVER_ICONS), of which only the PNG data: URL may be shown.
 */

export const NOTE_NAMES = ['welcome', 'weekly', 'wishlist', 'todo'];
export const PEOPLE = ['Ada', 'Alan', 'Grace'];
/** A credential a resource holds: reads return it, the audit log keeps it redacted. */
export const CONFIG_SECRET = 'api_key=sk-live-0123456789abcdefghij';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * The server's icons (serverInfo.icons): one a client may show (a PNG data: URL), and ones it must
 * not load: SVG (it can carry script), a javascript: URL, an http: URL, an entry without a src.
 */
export const SERVER_ICONS = [
  { src: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+', mimeType: 'image/svg+xml' },
  { src: 'javascript:alert(1)' },
  { src: 'http://icons.invalid/icon.png', mimeType: 'image/png' },
  { mimeType: 'image/png' },
  { src: `data:image/png;base64,${PNG}`, mimeType: 'image/png', sizes: ['1x1'] },
];

/**
 * Registers them on `server`; `ResourceTemplate` and `completable` come from the peer's SDK, and
 * `wrapArgs` makes a prompt's argument schema as that SDK takes it (1.x: a shape; 2.x: z.object).
 */
export function registerOfferings(server, { ResourceTemplate, completable, z, wrapArgs = (shape) => shape }) {
  server.registerResource(
    'welcome',
    'note://welcome',
    { title: 'Welcome note', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Welcome to Toolgate' }] }),
  );
  server.registerResource('logo', 'note://logo', { mimeType: 'image/png' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
  }));
  server.registerResource('config', 'note://config', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `${CONFIG_SECRET}\nregion=eu` }],
  }));
  server.registerResource(
    'note',
    new ResourceTemplate('note://notes/{name}', {
      list: undefined,
      complete: { name: (value) => NOTE_NAMES.filter((name) => name.startsWith(value)) },
    }),
    { title: 'A note by name', mimeType: 'text/plain' },
    async (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `The note called ${variables.name}` }],
    }),
  );
  server.registerPrompt(
    'greet',
    {
      title: 'Greet someone',
      description: 'Writes a greeting',
      argsSchema: wrapArgs({
        who: completable(z.string(), (value) => PEOPLE.filter((name) => name.startsWith(value))),
      }),
    },
    ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${who} warmly.` } }],
    }),
  );
}
