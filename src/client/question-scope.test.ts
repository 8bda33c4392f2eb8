import { describe, expect, it } from 'vitest';
import { QuestionScopes, WITHDRAWN } from './question-scope.js';

/** A call the test ends by hand. */
function call<T = string>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises run their callbacks. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('QuestionScopes', () => {
  it('withdraws a question once the call running when it arrived finishes, not before', async () => {
    const scopes = new QuestionScopes();
    const running = call();
    const result = scopes.track(running.promise);
    const question = scopes.open(1);
    await settle();
    expect(question.signal.aborted).toBe(false);
    running.resolve('done');
    expect(await result).toBe('done');
    await settle();
    expect(question.signal.aborted).toBe(true);
    expect(question.signal.reason).toBe(WITHDRAWN.callEnded);
  });

  it('withdraws it when that call fails (cancelled or timed out) and passes the failure on', async () => {
    const scopes = new QuestionScopes();
    const running = call();
    const result = scopes.track(running.promise);
    const question = scopes.open('q');
    running.reject(new Error('timed out'));
    await expect(result).rejects.toThrow('timed out');
    await settle();
    expect(question.signal.reason).toBe(WITHDRAWN.callEnded);
  });

  it('keeps it while any call that was running when it arrived still runs', async () => {
    const scopes = new QuestionScopes();
    const first = call();
    const second = call();
    void scopes.track(first.promise);
    void scopes.track(second.promise);
    const question = scopes.open(7);
    // A call that starts after the question cannot be the one that asked it.
    const later = call();
    void scopes.track(later.promise);
    first.resolve('a');
    await settle();
    expect(question.signal.aborted).toBe(false);
    second.resolve('b');
    await settle();
    expect(question.signal.aborted).toBe(true);
  });

  it('a question asked while no call runs belongs to none: only the server or closing withdraws it', async () => {
    const scopes = new QuestionScopes();
    const lonely = scopes.open(1);
    const cancelled = scopes.open(2);
    const running = call();
    void scopes.track(running.promise);
    running.resolve('x');
    await settle();
    expect(lonely.signal.aborted).toBe(false);
    scopes.cancel(2);
    expect(cancelled.signal.reason).toBe(WITHDRAWN.serverCancelled);
    expect(lonely.signal.aborted).toBe(false);
    scopes.closeAll();
    expect(lonely.signal.reason).toBe(WITHDRAWN.closed);
  });

  it('ignores cancellations of unknown or answered questions and ids that are not ids', () => {
    const scopes = new QuestionScopes();
    const answered = scopes.open(3);
    answered.close();
    scopes.cancel(3);
    scopes.cancel({ not: 'an id' });
    scopes.cancel(undefined);
    expect(answered.signal.aborted).toBe(false);
  });

  it('a reused question id withdraws the older question', () => {
    const scopes = new QuestionScopes();
    const older = scopes.open(5);
    const newer = scopes.open(5);
    expect(older.signal.aborted).toBe(true);
    older.close();
    scopes.cancel(5);
    expect(newer.signal.reason).toBe(WITHDRAWN.serverCancelled);
  });
});
