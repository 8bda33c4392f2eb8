import { describe, expect, it } from 'vitest';
import { type GateResult, InvalidArgumentsError } from '../../gate/index.js';
import type { CallToolResult, Tool } from '../../protocol/index.js';
import {
  type AnthropicToolUseBlock,
  fromAnthropicToolUse,
  toAnthropicToolResult,
  toAnthropicTools,
} from './anthropic.js';
import { ModelToolCallError } from './calls.js';
import { ANTHROPIC_TOOL_NAMES, createToolNameMap } from './names.js';

const getWeather: Tool = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
};
// A union root, as some servers publish: the Messages API rejects oneOf at the top of input_schema.
const lookup: Tool = {
  name: 'lookup.user',
  inputSchema: {
    oneOf: [
      { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
    ],
  },
};
const tools = [
  { serverId: 'weather', tool: getWeather },
  { serverId: 'crm', tool: lookup },
];
const names = createToolNameMap(
  ANTHROPIC_TOOL_NAMES,
  tools.map(({ serverId, tool }) => ({ serverId, toolName: tool.name })),
);

function completed(result: CallToolResult): GateResult {
  return {
    invocationId: 'inv-1',
    serverId: 'weather',
    toolName: 'get_weather',
    result,
    arguments: {},
    decision: { verdict: 'allow', source: { kind: 'default', reason: 'trusted-read-only' }, reason: 'test' },
    warnings: [],
  };
}

describe('Anthropic Messages', () => {
  it('declares tools in the documented shape, with an object input_schema at the root', () => {
    expect(toAnthropicTools(tools, names)).toEqual([
      {
        name: 'weather__get_weather',
        description: 'Get the current weather in a given location',
        input_schema: getWeather.inputSchema,
      },
      {
        name: 'crm__lookup_user',
        input_schema: {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } },
        },
      },
    ]);
  });

  it('round-trips a tool_use block back to server, tool and arguments', () => {
    // An assistant message with a tool_use block, as in Anthropic's tool-use docs (the name is ours).
    const message = {
      id: 'msg_01Aq9w938a90dw8q',
      model: 'claude-sonnet-4-5',
      stop_reason: 'tool_use',
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll check the current weather in San Francisco for you." },
        {
          type: 'tool_use',
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'weather__get_weather',
          input: { location: 'San Francisco, CA', unit: 'celsius' },
        },
      ],
    };
    const block = message.content.find((part) => part.type === 'tool_use') as AnthropicToolUseBlock;
    const call = fromAnthropicToolUse(block, names);
    expect(call).toEqual({
      callId: 'toolu_01A09q90qw90lq917835lq9',
      modelName: 'weather__get_weather',
      serverId: 'weather',
      toolName: 'get_weather',
      arguments: { location: 'San Francisco, CA', unit: 'celsius' },
    });
    expect(
      toAnthropicToolResult(call.callId, completed({ content: [{ type: 'text', text: '15 degrees' }] })),
    ).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
      content: [{ type: 'text', text: '15 degrees' }],
    });
  });

  it('sends images as base64 image blocks, and describes the ones the API cannot take', () => {
    const result = completed({
      content: [
        { type: 'text', text: 'Here is the chart' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'image', mimeType: 'image/JPG', data: '/9j/4AAQ' },
        { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA', annotations: { audience: ['user'] } },
      ],
    });
    expect(toAnthropicToolResult('toolu_1', result)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: 'Here is the chart\n[image: image/svg+xml, 5 bytes]' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      ],
    });
  });

  it('sends an image alone without an empty text block', () => {
    const result = completed({ content: [{ type: 'image', mimeType: 'image/webp', data: 'UklGRg==' }] });
    expect(toAnthropicToolResult('toolu_2', result).content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
    ]);
  });

  it('flags tool errors and gate failures with is_error', () => {
    const toolError = completed({ content: [{ type: 'text', text: 'city not found' }], isError: true });
    expect(toAnthropicToolResult('toolu_3', toolError)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_3',
      content: [{ type: 'text', text: 'city not found' }],
      is_error: true,
    });
    const invalid = new InvalidArgumentsError('weather', 'get_weather', [
      { path: '/location', message: 'must be string' },
    ]);
    const answer = toAnthropicToolResult('toolu_4', { error: invalid });
    expect(answer.is_error).toBe(true);
    expect(answer.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('/location') });
  });

  it('rejects input that is not an object, naming the tool', () => {
    const block: AnthropicToolUseBlock = {
      type: 'tool_use',
      id: 'toolu_5',
      name: 'crm__lookup_user',
      input: 'x',
    };
    expect(() => fromAnthropicToolUse(block, names)).toThrow(ModelToolCallError);
    expect(() => fromAnthropicToolUse(block, names)).toThrow(/"crm__lookup_user" \(lookup.user on crm\)/);
  });

  it('rejects a name it never declared', () => {
    const block: AnthropicToolUseBlock = { type: 'tool_use', id: 'toolu_6', name: 'lookup.user', input: {} };
    expect(() => fromAnthropicToolUse(block, names)).toThrow(/no tool named "lookup.user"/);
  });
});
