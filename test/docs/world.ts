/**
 * The names the manual's examples use without defining them: parts of the reader's own app (a
 * chat view, a model client, a key from their vault) and of the page (its <toolgate-panel>). Each is
 * typed with the package's own types where it is Toolgate's, and with the shape an example relies
 * on where it is the reader's (the `openai` client: the subset of the openai package's types that
 * the example calls). example-globals.d.ts declares them for the compiler; e2e/doc-examples.spec.ts
 * gives each the value of this type before it runs an example, so the two cannot disagree.
 */
import type { ToolgatePageApi } from '../../extension/page-api.js';
import type { AuthorizationRequest } from '../../src/auth/index.js';
import type {
  AppIdentity,
  HostToolCall,
  OpenAIChatTool,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  ToolgateHost,
} from '../../src/host/index.js';
import type { AnchoredHead, Caller, JsonObject, ModelToolResult } from '../../src/index.js';
import type { ToolgatePanelElement } from '../../src/widget.js';

export type OpenAIChatMessage =
  | OpenAIChatToolMessage
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIChatToolCall[] };

export interface OpenAIChatCompletions {
  create(request: { model: string; messages: OpenAIChatMessage[]; tools: OpenAIChatTool[] }): Promise<{
    choices: { message: { role: 'assistant'; content: string | null; tool_calls?: OpenAIChatToolCall[] } }[];
  }>;
}

export interface DocWorld {
  /** The page's <toolgate-panel>, in the document. */
  panel: ToolgatePanelElement;
  /** The host app's ToolgateHost (docs/apps.md goes on from docs/host-api.md). */
  host: ToolgateHost;
  /** A tool call the model made, read back with one of the adapters. */
  call: HostToolCall;
  /** The app's OpenAI client (`new OpenAI()` of the openai package). */
  openai: { chat: { completions: OpenAIChatCompletions } };
  model: string;
  messages: OpenAIChatMessage[];
  /** Hands a tool's outcome back to the model. */
  reply(answer: ModelToolResult): void;
  /** The app's own "Sign in to <server>?" prompt: resolves in the person's click, rejects on no. */
  askPerson(server: string, origin: string, scopes: AuthorizationRequest['scopes']): Promise<void>;
  abortController: AbortController;
  /** The app's bearer token for a server. */
  token: string;
  /** The OpenTelemetry collector's key. */
  collectorKey: string;
  /** A PKCS#8 PEM private key the app keeps in its own configuration. */
  pemFromYourVault: string;
  /** Where the panel is mounted. */
  element: HTMLElement;
  /** What the reader's server kept of onAnchor's heads and the log's public key. */
  keptHead: AnchoredHead;
  keptKey: JsonWebKey;
  /** The agent's current span (its W3C traceparent). */
  span: { traceparent: string };
  /** The host app's chat view and the model's context. */
  chat: { addAppMessage(app: AppIdentity, message: JsonObject, options: { caller: Caller }): void };
  context: { set(app: AppIdentity, context: JsonObject): void };
  /** A chat message that came from an app (chat.addAppMessage kept its caller). */
  message: { caller: Caller };
  /** What the extension puts on the pages of a site the person turned on. */
  toolgate: ToolgatePageApi;
}
