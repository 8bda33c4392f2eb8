/**
 * What servers say about tasks, generated at random (well-formed and not), in both eras: the parsers
 * never throw, accept exactly the tasks the revisions define, and what they keep has the promised shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isTerminal,
  MAX_TASK_ID_LENGTH,
  parseCreateTaskResult,
  parseTask,
  pollDelay,
  TASK_STATUSES,
} from './tasks-parse.js';

const anyValue = fc.anything({ withObjectString: true, withNullPrototype: false });
const status = fc.oneof(fc.constantFrom(...TASK_STATUSES), fc.string(), anyValue);
const duration = fc.oneof(fc.nat(), fc.constant(null), fc.double(), fc.integer(), anyValue);
const taskLike = (era: 'legacy' | 'modern') =>
  fc.record(
    {
      taskId: fc.oneof(fc.uuid(), fc.string(), anyValue),
      status,
      statusMessage: fc.oneof(fc.string(), anyValue),
      createdAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string(),
        anyValue,
      ),
      [era === 'modern' ? 'ttlMs' : 'ttl']: duration,
      [era === 'modern' ? 'pollIntervalMs' : 'pollInterval']: duration,
      result: fc.oneof(fc.record({ content: fc.constant([]) }), anyValue),
      error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), anyValue),
      inputRequests: fc.oneof(fc.dictionary(fc.string(), fc.object()), anyValue),
    },
    { requiredKeys: [] },
  );
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

describe('parsing what servers say about tasks', () => {
  for (const era of ['legacy', 'modern'] as const)
    it(`${era}: accepts a task exactly when its id and status are usable (and, modern, its payload is there)`, () => {
      fc.assert(
        fc.property(fc.oneof(taskLike(era), anyValue), (value) => {
          const parsed = parseTask(value, era);
          const v = isObject(value) ? value : {};
          const idOk =
            typeof v.taskId === 'string' && v.taskId !== '' && v.taskId.length <= MAX_TASK_ID_LENGTH;
          const statusOk =
            typeof v.status === 'string' && (TASK_STATUSES as readonly string[]).includes(v.status);
          const payloadOk =
            era === 'legacy' ||
            (v.status === 'completed'
              ? isObject(v.result)
              : v.status === 'failed'
                ? isObject(v.error)
                : v.status === 'input_required'
                  ? isObject(v.inputRequests)
                  : true);
          expect('task' in parsed).toBe(isObject(value) && idOk && statusOk && payloadOk);
          if (!('task' in parsed)) {
            expect(parsed.problem.length).toBeGreaterThan(0);
            return;
          }
          const { task } = parsed;
          expect(task.taskId).toBe(v.taskId);
          expect(TASK_STATUSES).toContain(task.status);
          if (task.ttlMs !== undefined && task.ttlMs !== null) expect(task.ttlMs).toBeGreaterThanOrEqual(0);
          if (task.pollIntervalMs !== undefined) {
            expect(Number.isFinite(task.pollIntervalMs)).toBe(true);
            expect(task.pollIntervalMs).toBeGreaterThanOrEqual(0);
          }
          if (task.statusMessage !== undefined) expect(typeof task.statusMessage).toBe('string');
          if (task.createdAt !== undefined) expect(Number.isNaN(Date.parse(task.createdAt))).toBe(false);
          // Payloads are kept only in the modern era, and only for their own status.
          if (era === 'legacy') expect(task.result ?? task.error ?? task.inputRequests).toBeUndefined();
          if (task.result) expect(task.status).toBe('completed');
          if (task.error) expect(task.status).toBe('failed');
          if (task.inputRequests) expect(task.status).toBe('input_required');
        }),
      );
    });

  it('tells a task handle from an ordinary result in both eras, never throwing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), anyValue),
        fc.constantFrom('legacy', 'modern'),
        (result, era) => {
          const parsed = parseCreateTaskResult(result, era);
          if (era === 'modern') expect(parsed === undefined).toBe(result.resultType !== 'task');
          else expect(parsed === undefined).toBe(!('task' in result) || Array.isArray(result.content));
        },
      ),
    );
  });

  it('reads the 2025-11-25 and 2026-07-28 examples', () => {
    const legacy = parseCreateTaskResult(
      {
        task: {
          taskId: '786512e2',
          status: 'working',
          createdAt: '2025-11-25T10:30:00Z',
          lastUpdatedAt: '2025-11-25T10:30:00Z',
          ttl: 60000,
          pollInterval: 5000,
        },
      },
      'legacy',
    );
    expect(legacy).toEqual({
      task: {
        taskId: '786512e2',
        status: 'working',
        createdAt: '2025-11-25T10:30:00Z',
        ttlMs: 60000,
        pollIntervalMs: 5000,
      },
    });
    const modern = parseCreateTaskResult(
      { resultType: 'task', taskId: 'x', status: 'working', ttlMs: null, pollIntervalMs: 5000 },
      'modern',
    );
    expect(modern).toEqual({ task: { taskId: 'x', status: 'working', ttlMs: null, pollIntervalMs: 5000 } });
    expect(isTerminal('working')).toBe(false);
    expect(isTerminal('cancelled')).toBe(true);
  });

  it('keeps every poll between the floor and the ceiling, and honours the server within them', () => {
    fc.assert(
      fc.property(
        fc.option(fc.nat({ max: 10_000_000 }), { nil: undefined }),
        fc.nat({ max: 5_000 }),
        fc.nat({ max: 600_000 }),
        (wanted, floorMs, extra) => {
          const bounds = { floorMs, ceilingMs: floorMs + extra, defaultMs: 1_000 };
          const delay = pollDelay(wanted, bounds);
          expect(delay).toBeGreaterThanOrEqual(bounds.floorMs);
          expect(delay).toBeLessThanOrEqual(bounds.ceilingMs);
          const target = wanted ?? bounds.defaultMs;
          if (target >= bounds.floorMs && target <= bounds.ceilingMs) expect(delay).toBe(target);
        },
      ),
    );
  });
});
