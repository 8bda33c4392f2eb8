#!/usr/bin/env node
/**
 * A 2026-07-28 server with the tasks extension (`io.modelcontextprotocol/tasks`), written by hand
 * from specification/2026-07-28 (draft) tasks.md of github.com/modelcontextprotocol/ext-tasks:
 * no official server implements the extension yet (the SDK 1.x speaks the 2025-11-25 core tasks,
 * the SDK 2.x none), so this peer follows the text line by line. Plain JSON over node:http.
 *
 *   --port N   0 = any free port
 *
 * Tools (all answer with a CreateTaskResult; none without the extension declared on the request:
 * -32021 then, as the text requires):
 *   long_job    {seconds, pollIntervalMs?, ttlMs?}  completes after `seconds` with "done after Ns"
 *   ask_job     {pollIntervalMs?}  working, then input_required (key `topic`, an elicitation), then
 *               completes with "researched <answer>"
 *   endless_job {ttlMs}  never finishes (its time to live is the client's backstop)
 *   failing_job {}  fails with a JSON-RPC error (-32603)
 * GET /__events adds `tasks`: per task id its tool, every tasks/get time (ms), every tasks/update's
 * inputResponses, the tasks/cancel count, how often each input key was asked in a tasks/get, and
 * when the task ended here (`endedAt`, ms).
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { applyCors, createRecorder, listen, peerFlags, readJsonBody, sendJson } from './common.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';
const VERSION = '2026-07-28';
const flags = peerFlags();
const recorder = createRecorder();
/** taskId -> { tool, state: Task, started, log } */
const tasks = new Map();

const TOOLS = [
  {
    name: 'long_job',
    description: 'Works for a number of seconds as a task, then says so',
    inputSchema: {
      type: 'object',
      properties: {
        seconds: { type: 'number' },
        pollIntervalMs: { type: 'integer' },
        ttlMs: { type: 'integer' },
      },
      required: ['seconds'],
    },
  },
  {
    name: 'ask_job',
    description: 'Asks for a topic while it runs as a task, then researches it',
    inputSchema: { type: 'object', properties: { pollIntervalMs: { type: 'integer' } } },
  },
  {
    name: 'endless_job',
    description: 'Never finishes',
    inputSchema: { type: 'object', properties: { ttlMs: { type: 'integer' } }, required: ['ttlMs'] },
  },
  { name: 'failing_job', description: 'Fails as a task', inputSchema: { type: 'object', properties: {} } },
];

const TOPIC_QUESTION = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Which topic should the research cover?',
    requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  },
};

/** A JSON-RPC error answer (a failed task's result carries an `error` member of its own). */
class Refusal {
  constructor(error) {
    this.error = error;
  }
}

function now() {
  return new Date().toISOString();
}

function declaresTasks(params) {
  const capabilities = params?._meta?.['io.modelcontextprotocol/clientCapabilities'];
  return Boolean(capabilities?.extensions && TASKS in capabilities.extensions);
}

const missingCapability = () => ({
  code: -32021,
  message: 'Missing required client capability',
  data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
});

/** The task as tasks/get shows it: a DetailedTask (payload inlined by status). */
function detailed(task) {
  const { state } = task;
  return { ...state };
}

function setStatus(task, status, extra = {}) {
  if (['completed', 'failed', 'cancelled'].includes(task.state.status)) return;
  if (['completed', 'failed', 'cancelled'].includes(status)) task.log.endedAt = Date.now();
  const { result: _r, error: _e, inputRequests: _i, ...base } = task.state;
  task.state = { ...base, status, lastUpdatedAt: now(), ...extra };
}

function createTask(tool, args) {
  const taskId = randomUUID();
  const ttlMs = tool === 'endless_job' ? args.ttlMs : (args.ttlMs ?? 600_000);
  const task = {
    tool,
    timers: [],
    log: { tool, polls: [], updates: [], cancels: 0, asked: {} },
    state: {
      taskId,
      status: 'working',
      statusMessage: 'Started',
      createdAt: now(),
      lastUpdatedAt: now(),
      ttlMs,
      pollIntervalMs: args.pollIntervalMs ?? 500,
    },
  };
  tasks.set(taskId, task);
  const later = (ms, fn) => task.timers.push(setTimeout(fn, ms));
  if (tool === 'long_job') {
    const ms = Math.round(Number(args.seconds) * 1000);
    later(ms / 2, () => setStatus(task, 'working', { statusMessage: 'Halfway there' }));
    later(ms, () =>
      setStatus(task, 'completed', {
        statusMessage: 'Finished',
        result: { content: [{ type: 'text', text: `done after ${args.seconds}s` }], isError: false },
      }),
    );
  }
  if (tool === 'ask_job')
    later(300, () =>
      setStatus(task, 'input_required', {
        statusMessage: 'Waiting for a topic',
        inputRequests: { topic: TOPIC_QUESTION },
      }),
    );
  if (tool === 'failing_job')
    later(200, () =>
      setStatus(task, 'failed', {
        statusMessage: 'The upstream API refused',
        error: { code: -32603, message: 'API rate limit exceeded' },
      }),
    );
  return task;
}

function handle(message) {
  const { method, params = {} } = message;
  switch (method) {
    case 'server/discover':
      return {
        supportedVersions: [VERSION],
        capabilities: { tools: {}, extensions: { [TASKS]: {} } },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'toolgate-peer-tasks', version: '1.0.0' } },
        resultType: 'complete',
      };
    case 'tools/list':
      return { tools: TOOLS, resultType: 'complete' };
    case 'tools/call': {
      const tool = TOOLS.find((t) => t.name === params.name);
      if (!tool) return new Refusal({ code: -32602, message: `Unknown tool: ${params.name}` });
      // "A server MUST NOT return CreateTaskResult to a client that did not include the extension capability"
      if (!declaresTasks(params)) return new Refusal(missingCapability());
      recorder.call(tool.name, params.arguments ?? {});
      const task = createTask(tool.name, params.arguments ?? {});
      return { ...detailed(task), resultType: 'task' };
    }
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel': {
      if (!declaresTasks(params)) return new Refusal(missingCapability());
      const task = tasks.get(params.taskId);
      if (!task) return new Refusal({ code: -32602, message: 'Failed to retrieve task: Task not found' });
      if (method === 'tasks/get') {
        task.log.polls.push(Date.now());
        for (const key of Object.keys(task.state.inputRequests ?? {}))
          task.log.asked[key] = (task.log.asked[key] ?? 0) + 1;
        return { ...detailed(task), resultType: 'complete' };
      }
      if (method === 'tasks/update') {
        task.log.updates.push(params.inputResponses ?? null);
        const answer = params.inputResponses?.topic;
        // Keys not outstanding are ignored, as the text asks.
        if (answer && task.state.status === 'input_required' && !task.answered) {
          task.answered = true;
          const topic = answer.action === 'accept' ? String(answer.content?.topic ?? '') : '(none)';
          recorder.elicited(task.tool, answer);
          // "The acknowledgement is eventually consistent": the task shows the answer only a while
          // later, so the next poll still lists the key the client has answered (it must not ask again).
          task.timers.push(
            setTimeout(() => setStatus(task, 'working', { statusMessage: `Researching ${topic}` }), 600),
            setTimeout(
              () =>
                setStatus(task, 'completed', {
                  statusMessage: 'Report ready',
                  result: { content: [{ type: 'text', text: `researched ${topic}` }], isError: false },
                }),
              1000,
            ),
          );
        }
        return { resultType: 'complete' };
      }
      task.log.cancels++;
      recorder.cancelled(task.tool, {}, 'tasks/cancel');
      for (const timer of task.timers) clearTimeout(timer);
      setStatus(task, 'cancelled', { statusMessage: 'Cancelled by the client' });
      return { resultType: 'complete' };
    }
    default:
      return new Refusal({ code: -32601, message: `Method not found: ${method}` });
  }
}

const server = createServer(async (req, res) => {
  if (flags.cors && applyCors(req, res)) return;
  const path = new URL(req.url ?? '/', 'http://peer').pathname;
  if (path === '/__events') {
    const log = Object.fromEntries([...tasks].map(([id, task]) => [id, task.log]));
    return sendJson(res, 200, { ...recorder.events, tasks: log });
  }
  if (path !== '/mcp') return sendJson(res, 404, { error: 'not found' });
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' });
    return res.end();
  }
  const body = await readJsonBody(req);
  recorder.request(req, body);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  if (body.id === undefined) {
    res.writeHead(202);
    return res.end();
  }
  const answer = handle(body);
  if (answer instanceof Refusal)
    return sendJson(res, 200, { jsonrpc: '2.0', id: body.id, error: answer.error });
  sendJson(res, 200, { jsonrpc: '2.0', id: body.id, result: answer });
});

listen(server, flags.port, '/mcp');
