import { describe, expect, it } from 'vitest';
import { formatRemaining } from './approval-countdown.js';

describe('formatRemaining', () => {
  it('shows minutes and seconds, rounding a started second up', () => {
    expect(formatRemaining(598_000)).toBe('9:58');
    expect(formatRemaining(597_001)).toBe('9:58');
    expect(formatRemaining(60_000)).toBe('1:00');
    expect(formatRemaining(59_999)).toBe('1:00');
    expect(formatRemaining(5_000)).toBe('0:05');
  });

  it('shows hours when there are any, and never a negative time', () => {
    expect(formatRemaining(3_723_000)).toBe('1:02:03');
    expect(formatRemaining(-10)).toBe('0:00');
  });
});
