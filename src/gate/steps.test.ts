import { describe, expect, it } from 'vitest';
import { McpError, RequestCancelledError, RequestTimeoutError } from '../protocol/index.js';
import { DeniedError, InvalidArgumentsError } from './errors.js';
import {
  assertNotDenied,
  assertValid,
  describeError,
  outcomeOfError,
  outcomeOfResult,
  settleApproval,
} from './steps.js';

describe('gate steps', () => {
  it('assertValid stops invalid reports only', () => {
    expect(() => assertValid('s', 't', { status: 'valid', engine: 'ajv' })).not.toThrow();
    expect(() => assertValid('s', 't', { status: 'skipped', reason: 'too big' })).not.toThrow();
    const error = (() => {
      try {
        assertValid('s', 't', {
          status: 'invalid',
          engine: 'ajv',
          issues: [{ path: 'city', message: 'is required' }],
        });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect((error as Error).message).toContain('t on s was not called');
    expect((error as Error).message).toContain('city: is required');
  });

  it('assertNotDenied stops deny verdicts with the reason', () => {
    const decision = {
      verdict: 'deny' as const,
      source: { kind: 'rule' as const, ruleId: 'r1' },
      reason: 'never on Fridays',
    };
    expect(() => assertNotDenied('s', 't', decision)).toThrow(/denied by policy: never on Fridays/);
    expect(() => assertNotDenied('s', 't', { ...decision, verdict: 'ask' })).not.toThrow();
  });

  it('settleApproval copies the arguments it returns and turns a denial into DeniedError', () => {
    const proposed = { path: '/tmp/a' };
    const approved = settleApproval('s', 't', proposed, {
      action: 'allow',
      remember: 'session',
      decidedBy: 'Ada',
    });
    expect(approved).toEqual({
      arguments: { path: '/tmp/a' },
      remember: 'session',
      decidedBy: 'Ada',
      edited: false,
    });
    expect(approved.arguments).not.toBe(proposed);
    const edited = { path: '/tmp/b' };
    const withEdit = settleApproval('s', 't', proposed, {
      action: 'allow',
      remember: 'once',
      arguments: edited,
    });
    expect(withEdit).toMatchObject({ arguments: { path: '/tmp/b' }, edited: true });
    expect(withEdit.arguments).not.toBe(edited);
    expect(() => settleApproval('s', 't', proposed, { action: 'deny', reason: 'no' })).toThrow(DeniedError);
  });

  it('classifies how a call ended', () => {
    expect(outcomeOfError(new RequestCancelledError('tools/call'))).toBe('cancelled');
    expect(outcomeOfError(new RequestTimeoutError('tools/call', 10))).toBe('timed-out');
    expect(outcomeOfError(new McpError(-32603, 'boom'))).toBe('protocol-error');
    expect(
      outcomeOfResult({ content: [], isError: true }, { status: 'invalid', engine: 'ajv', issues: [] }),
    ).toBe('tool-error');
    expect(outcomeOfResult({ content: [] }, { status: 'invalid', engine: 'ajv', issues: [] })).toBe(
      'invalid-output',
    );
    expect(outcomeOfResult({ content: [] }, undefined)).toBe('success');
  });

  it('describes errors for the audit log', () => {
    expect(describeError(new RequestTimeoutError('tools/call', 10))).toMatchObject({ kind: 'timeout' });
    expect(describeError(new TypeError('bad'))).toEqual({ kind: 'TypeError', message: 'bad' });
    expect(describeError('odd')).toEqual({ kind: 'unknown', message: 'odd' });
  });
});
