/**
 * Prompts and resources for a web app: prompts to offer as slash commands, resources to attach as
 * context. Listing moves nothing the app could not see anyway; every prompt get and every read goes
 * through the gate with the app's caller (the host's `caller`, by default the app), so the person
 * is asked unless they remembered an approval for it, and each is recorded in the audit log. What
 * comes back is also given as messages, for the model adapters (toAnthropicMessages,
 * toOpenAIChatMessages, toOpenAIResponsesInput, toGeminiContents) to put in a conversation.
 */

import type { Caller } from '../gate/index.js';
import type {
  GetPromptResult,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  Resource,
} from '../protocol/index.js';
import type { Controller, SessionOfferings } from '../session/index.js';
import { resourceMessages } from './adapters/message-parts.js';

/** Per-get or per-read options. */
export interface HostAccessOptions {
  signal?: AbortSignal;
}

/** A prompt a server offers, as a slash command. */
export interface HostPrompt {
  serverId: string;
  /** The command to type (without `/`): the prompt's name, or `serverId/name` when servers share it. */
  command: string;
  /** The server's listing entry (server text: show it as text). */
  prompt: Prompt;
  /** Gets the prompt through the gate; rejects when it is denied, invalid or fails. */
  get(args?: Record<string, string>, options?: HostAccessOptions): Promise<HostPromptResult>;
  /**
   * Completions for one argument as the person types (values the server suggests; none when it
   * offers no completion). `context`: the arguments filled so far.
   */
  complete(argument: string, value: string, context?: Record<string, string>): Promise<string[]>;
}

export interface HostPromptResult {
  invocationId: string;
  description?: string;
  /** The prompt's messages, as the server sent them (checked): for the adapters. */
  messages: PromptMessage[];
}

/** A resource a server lists, to attach as context. */
export interface HostResource {
  serverId: string;
  /** The server's listing entry (server text: show it as text). */
  resource: Resource;
  /** Reads it through the gate; rejects when it is denied, too large or fails. */
  read(options?: HostAccessOptions): Promise<HostResourceResult>;
}

export interface HostResourceResult {
  invocationId: string;
  contents: ReadResourceResult['contents'];
  /** The contents as user messages (one embedded resource each): for the adapters. */
  messages: PromptMessage[];
}

interface HostOfferings {
  prompts(): Promise<HostPrompt[]>;
  resources(): Promise<HostResource[]>;
  /** Reads any URI of a connected server (a template filled in, a link a tool returned). */
  readResource(serverId: string, uri: string, options?: HostAccessOptions): Promise<HostResourceResult>;
}

export function createHostOfferings(controller: Controller, caller: Caller): HostOfferings {
  const offerings = (): SessionOfferings => {
    if (!controller.offerings)
      throw new Error('This Toolgate controller offers no prompts or resources (it has no offerings).');
    return controller.offerings;
  };
  const offering = (kind: 'prompts' | 'resources') =>
    controller.servers.value.filter((server) => server.state === 'connected' && server.offers?.[kind]);

  const readResource = async (serverId: string, uri: string, options: HostAccessOptions = {}) => {
    const read = await offerings().readResource(serverId, uri, {
      caller,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      invocationId: read.invocationId,
      contents: read.result.contents,
      messages: resourceMessages(read.result),
    };
  };

  return {
    async prompts() {
      // One server that fails to list does not hide the others' prompts.
      const listed = await Promise.all(
        offering('prompts').map(async (server) => ({
          serverId: server.id,
          prompts: (
            await offerings()
              .listPrompts(server.id)
              .catch(() => ({ prompts: [] }))
          ).prompts,
        })),
      );
      const uses = new Map<string, number>();
      for (const { prompts } of listed)
        for (const prompt of prompts) uses.set(prompt.name, (uses.get(prompt.name) ?? 0) + 1);
      return listed.flatMap(({ serverId, prompts }) =>
        prompts.map(
          (prompt): HostPrompt => ({
            serverId,
            command: (uses.get(prompt.name) ?? 0) > 1 ? `${serverId}/${prompt.name}` : prompt.name,
            prompt,
            async get(args = {}, options = {}) {
              const got = await offerings().getPrompt(serverId, prompt.name, args, {
                caller,
                ...(options.signal ? { signal: options.signal } : {}),
              });
              const result: GetPromptResult = got.result;
              return {
                invocationId: got.invocationId,
                ...(result.description !== undefined ? { description: result.description } : {}),
                messages: result.messages,
              };
            },
            async complete(argument, value, context) {
              const server = controller.servers.value.find((s) => s.id === serverId);
              if (!server?.offers?.completions) return [];
              const answer = await offerings().complete(
                serverId,
                {
                  ref: { type: 'ref/prompt', name: prompt.name },
                  argument: { name: argument, value },
                  ...(context ? { context: { arguments: context } } : {}),
                },
                undefined,
                caller,
              );
              return answer.completion.values;
            },
          }),
        ),
      );
    },
    async resources() {
      const listed = await Promise.all(
        offering('resources').map(async (server) => ({
          serverId: server.id,
          resources: (
            await offerings()
              .listResources(server.id)
              .catch(() => ({ resources: [] }))
          ).resources,
        })),
      );
      return listed.flatMap(({ serverId, resources }) =>
        resources
          // An MCP App's view (ui://) is the app's to show, not context to hand a model.
          .filter((resource) => !resource.uri.startsWith('ui://'))
          .map(
            (resource): HostResource => ({
              serverId,
              resource,
              read: (options) => readResource(serverId, resource.uri, options),
            }),
          ),
      );
    },
    readResource,
  };
}
