import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../gate/index.js';
import { type CallToolResult, RequestTimeoutError, type Tool } from '../../protocol/index.js';
import { ModelToolCallError } from './calls.js';
import {
  fromGeminiFunctionCall,
  type GeminiFunctionCallPart,
  toGeminiFunctionResponse,
  toGeminiTools,
} from './gemini.js';
import { createToolNameMap, GEMINI_TOOL_NAMES } from './names.js';

// The lighting tool of Gemini's function-calling docs, as an MCP server would publish it: full JSON
// Schema, with keywords Gemini's OpenAPI subset does not accept.
const setLight: Tool = {
  name: 'set_light_values',
  description: 'Sets the brightness and color temperature of a light.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      brightness: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        description: 'Light level from 0 to 100. Zero is off and 100 is full brightness',
      },
      color_temp: { $ref: '#/$defs/colorTemp' },
    },
    required: ['brightness', 'color_temp'],
    additionalProperties: false,
    $defs: {
      colorTemp: {
        type: 'string',
        enum: ['daylight', 'cool', 'warm'],
        description: 'Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`.',
      },
    },
  },
};
const status: Tool = { name: 'status', description: 'Report status', inputSchema: { type: 'object' } };
const tools = [
  { serverId: 'home', tool: setLight },
  { serverId: 'home', tool: status },
];
const names = createToolNameMap(
  GEMINI_TOOL_NAMES,
  tools.map(({ serverId, tool }) => ({ serverId, toolName: tool.name })),
);

function completed(result: CallToolResult): GateResult {
  return {
    invocationId: 'inv-1',
    serverId: 'home',
    toolName: 'set_light_values',
    result,
    arguments: {},
    decision: { verdict: 'allow', source: { kind: 'default', reason: 'trusted-read-only' }, reason: 'test' },
    warnings: [],
  };
}

describe('Gemini', () => {
  it('declares the documented functionDeclarations shape, in Gemini’s schema subset', () => {
    expect(toGeminiTools(tools, names)).toEqual([
      {
        functionDeclarations: [
          {
            name: 'home__set_light_values',
            description: 'Sets the brightness and color temperature of a light.',
            parameters: {
              type: 'object',
              properties: {
                brightness: {
                  type: 'integer',
                  description: 'Light level from 0 to 100. Zero is off and 100 is full brightness',
                },
                color_temp: {
                  type: 'string',
                  enum: ['daylight', 'cool', 'warm'],
                  description:
                    'Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`.',
                },
              },
              required: ['brightness', 'color_temp'],
            },
          },
          // No `parameters`: Gemini rejects an object schema whose properties are empty.
          { name: 'home__status', description: 'Report status' },
        ],
      },
    ]);
  });

  it('declares nothing when there are no tools', () => {
    expect(toGeminiTools([], names)).toEqual([]);
  });

  it('round-trips a functionCall part back to server, tool and arguments', () => {
    // A generateContent response that calls a function, as in Gemini's function-calling docs.
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  name: 'home__set_light_values',
                  args: { color_temp: 'warm', brightness: 25 },
                },
              },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    };
    const part = response.candidates[0]!.content.parts[0] as GeminiFunctionCallPart;
    const call = fromGeminiFunctionCall(part, names);
    expect(call).toEqual({
      modelName: 'home__set_light_values',
      serverId: 'home',
      toolName: 'set_light_values',
      arguments: { color_temp: 'warm', brightness: 25 },
    });
    expect(
      toGeminiFunctionResponse(
        call.modelName,
        completed({ content: [{ type: 'text', text: 'brightness 25, warm' }] }),
      ),
    ).toEqual({
      functionResponse: { name: 'home__set_light_values', response: { output: 'brightness 25, warm' } },
    });
  });

  it('carries a call id through to the response', () => {
    const call = fromGeminiFunctionCall({ functionCall: { id: 'fc-7', name: 'home__status' } }, names);
    expect(call).toEqual({
      callId: 'fc-7',
      modelName: 'home__status',
      serverId: 'home',
      toolName: 'status',
      arguments: {},
    });
    expect(toGeminiFunctionResponse(call.modelName, completed({ content: [] }), call.callId)).toEqual({
      functionResponse: {
        name: 'home__status',
        id: 'fc-7',
        response: { output: '(The tool returned no content.)' },
      },
    });
  });

  it('puts tool errors and failures under the `error` key', () => {
    const toolError = completed({ content: [{ type: 'text', text: 'light is offline' }], isError: true });
    expect(toGeminiFunctionResponse('home__set_light_values', toolError).functionResponse.response).toEqual({
      error: 'light is offline',
    });
    const timeout = new RequestTimeoutError('tools/call', 60_000);
    expect(toGeminiFunctionResponse('home__status', { error: timeout }).functionResponse.response).toEqual({
      error: expect.stringContaining('timed out'),
    });
  });

  it('rejects args that are not an object, naming the tool', () => {
    const part: GeminiFunctionCallPart = { functionCall: { name: 'home__status', args: [1, 2] } };
    expect(() => fromGeminiFunctionCall(part, names)).toThrow(ModelToolCallError);
    expect(() => fromGeminiFunctionCall(part, names)).toThrow(/"home__status" \(status on home\)/);
  });

  it('rejects a name it never declared', () => {
    expect(() =>
      fromGeminiFunctionCall({ functionCall: { name: 'set_light_values', args: {} } }, names),
    ).toThrow(/no tool named "set_light_values"/);
  });
});
