import { describe, expect, it } from 'vitest';
import { DeniedError, errorForModel, type GateResult } from '../../gate/index.js';
import type { CallToolResult, Tool } from '../../protocol/index.js';
import { ModelToolCallError } from './calls.js';
import { createToolNameMap, OPENAI_TOOL_NAMES } from './names.js';
import {
  fromOpenAIChatToolCall,
  fromOpenAIResponsesFunctionCall,
  type OpenAIChatToolCall,
  type OpenAIResponsesFunctionCall,
  toOpenAIChatToolMessage,
  toOpenAIChatTools,
  toOpenAIResponsesOutput,
  toOpenAIResponsesTools,
} from './openai.js';

const getWeather: Tool = {
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
    additionalProperties: false,
  },
};
const ping: Tool = { name: 'ping', title: 'Ping the server', inputSchema: { type: 'object' } };
const tools = [
  { serverId: 'weather', tool: getWeather },
  { serverId: 'ops', tool: ping },
];
const names = createToolNameMap(
  OPENAI_TOOL_NAMES,
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

describe('OpenAI Chat Completions', () => {
  it('declares tools in the documented `tools` shape', () => {
    expect(toOpenAIChatTools(tools, names)).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather__get_weather',
          description: 'Get the current weather in a given location',
          parameters: getWeather.inputSchema,
        },
      },
      {
        type: 'function',
        function: {
          name: 'ops__ping',
          description: 'Ping the server',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
  });

  it('round-trips a tool call from a chat completion back to server, tool and arguments', () => {
    // The assistant message of a chat completion with tool calls, as in the OpenAI function-calling
    // docs (the name is the one we declared).
    const completion = {
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1699896916,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_abc123',
                type: 'function',
                function: { name: 'weather__get_weather', arguments: '{"location":"San Francisco, CA"}' },
              },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
    };
    const toolCall = completion.choices[0]!.message.tool_calls[0] as OpenAIChatToolCall;
    const call = fromOpenAIChatToolCall(toolCall, names);
    expect(call).toEqual({
      callId: 'call_abc123',
      modelName: 'weather__get_weather',
      serverId: 'weather',
      toolName: 'get_weather',
      arguments: { location: 'San Francisco, CA' },
    });

    const result = completed({ content: [{ type: 'text', text: '18°C, cloudy' }] });
    expect(toOpenAIChatToolMessage(call.callId, result)).toEqual({
      role: 'tool',
      tool_call_id: 'call_abc123',
      content: '18°C, cloudy',
    });
  });

  it('reads empty arguments as none', () => {
    const call = fromOpenAIChatToolCall(
      { id: 'call_1', type: 'function', function: { name: 'ops__ping', arguments: '' } },
      names,
    );
    expect(call).toMatchObject({ serverId: 'ops', toolName: 'ping', arguments: {} });
  });

  it('rejects arguments that are not JSON with an error naming the tool', () => {
    const bad = {
      id: 'call_2',
      type: 'function',
      function: { name: 'weather__get_weather', arguments: '{"location": "Paris' },
    } as const;
    expect(() => fromOpenAIChatToolCall(bad, names)).toThrow(ModelToolCallError);
    try {
      fromOpenAIChatToolCall(bad, names);
    } catch (error) {
      const problem = error as ModelToolCallError;
      expect(problem.problem).toBe('invalid-arguments');
      expect(problem.callId).toBe('call_2');
      expect(problem.message).toContain('"weather__get_weather"');
      expect(problem.message).toContain('get_weather on weather');
      expect(problem.message).toContain('not valid JSON');
      // The host answers the call with it, so the model can try again.
      expect(toOpenAIChatToolMessage('call_2', { error })).toEqual({
        role: 'tool',
        tool_call_id: 'call_2',
        content: errorForModel(error).text,
      });
    }
  });

  it('rejects arguments that are JSON but not an object', () => {
    expect(() =>
      fromOpenAIChatToolCall(
        { id: 'c', type: 'function', function: { name: 'weather__get_weather', arguments: '["Paris"]' } },
        names,
      ),
    ).toThrow(/weather__get_weather.*an array, not an object/);
  });

  it('rejects a name it never declared', () => {
    expect(() =>
      fromOpenAIChatToolCall(
        { id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        names,
      ),
    ).toThrow(/no tool named "get_weather"/);
  });

  it('says in the text that a tool error is one, since the message has no error flag', () => {
    const result = completed({ content: [{ type: 'text', text: 'unknown city' }], isError: true });
    expect(toOpenAIChatToolMessage('call_3', result).content).toBe(
      'The tool reported an error: unknown city',
    );
  });

  it('answers a denied call with the gate’s words', () => {
    const denied = new DeniedError('weather', 'get_weather', 'person', 'not now');
    expect(toOpenAIChatToolMessage('call_4', { error: denied }).content).toBe(
      'The user denied this tool call: not now. Do not retry it unless the user asks.',
    );
  });
});

describe('OpenAI Responses', () => {
  it('declares flat, non-strict function tools', () => {
    expect(toOpenAIResponsesTools(tools, names)).toEqual([
      {
        type: 'function',
        name: 'weather__get_weather',
        description: 'Get the current weather in a given location',
        parameters: getWeather.inputSchema,
        strict: false,
      },
      {
        type: 'function',
        name: 'ops__ping',
        description: 'Ping the server',
        parameters: { type: 'object', properties: {} },
        strict: false,
      },
    ]);
  });

  it('round-trips a function_call output item back to server, tool and arguments', () => {
    // A `function_call` item of `response.output`, as in the OpenAI function-calling guide.
    const item: OpenAIResponsesFunctionCall = {
      type: 'function_call',
      id: 'fc_12345xyz',
      call_id: 'call_12345xyz',
      name: 'weather__get_weather',
      arguments: '{"location":"Paris, France"}',
      status: 'completed',
    };
    const call = fromOpenAIResponsesFunctionCall(item, names);
    expect(call).toEqual({
      callId: 'call_12345xyz',
      modelName: 'weather__get_weather',
      serverId: 'weather',
      toolName: 'get_weather',
      arguments: { location: 'Paris, France' },
    });
    const result = completed({ content: [], structuredContent: { temp: 14 } });
    expect(toOpenAIResponsesOutput(call.callId, result)).toEqual({
      type: 'function_call_output',
      call_id: 'call_12345xyz',
      output: '{"temp":14}',
    });
  });

  it('rejects bad JSON arguments with an error naming the tool', () => {
    expect(() =>
      fromOpenAIResponsesFunctionCall(
        { type: 'function_call', call_id: 'call_9', name: 'ops__ping', arguments: '{oops}' },
        names,
      ),
    ).toThrow(/"ops__ping" \(ping on ops\).*not valid JSON/);
  });

  it('marks tool errors and never sends an empty output', () => {
    expect(toOpenAIResponsesOutput('c', completed({ content: [], isError: true })).output).toBe(
      'The tool reported an error without details.',
    );
    expect(toOpenAIResponsesOutput('c', completed({ content: [] })).output).toBe(
      '(The tool returned no content.)',
    );
  });
});
