/**
 * How a failed connection is told to the person. A declined sign-in is the person's own choice and
 * is told apart from failures; the errors are the OAuth layer's own classes, made as it makes them.
 */

import { describe, expect, it } from 'vitest';
import { AuthorizationError, signInDeclined } from '../auth/index.js';
import { explainConnectError } from './connect-errors.js';

const neverReached = async () => {
  throw new Error('a declined sign-in must not be probed');
};

describe('explainConnectError', () => {
  it('tells a declined sign-in apart, in words that say what to do, without probing the server', async () => {
    const declined = new AuthorizationError(
      'https://notes.example/mcp',
      'authorization',
      signInDeclined('You chose not to sign in to Notes now.').message,
      401,
      true,
    );
    const problem = await explainConnectError('Notes', declined, 'https://notes.example/mcp', neverReached);
    expect(problem.cause).toBe('declined');
    expect(problem.message).toBe(
      'You chose not to sign in to Notes now, so it is not connected. Sign in when you want to use it.',
    );
  });

  it('finds it under a wrapping error too', async () => {
    const inner = new AuthorizationError('https://notes.example/mcp', 'authorization', 'no', 401, true);
    const wrapped = new Error('connect failed', { cause: inner });
    expect((await explainConnectError('Notes', wrapped, undefined, neverReached)).cause).toBe('declined');
  });

  it('keeps a failed sign-in a failure, naming the server and the step', async () => {
    const failed = new AuthorizationError('https://notes.example/mcp', 'token', 'the code was refused');
    const problem = await explainConnectError('Notes', failed, 'https://notes.example/mcp', neverReached);
    expect(problem.cause).toBe('other');
    expect(problem.message).toContain(
      'Signing in to https://notes.example/mcp failed (exchanging the authorization code)',
    );
  });
});
