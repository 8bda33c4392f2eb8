import { describe, expect, it } from 'vitest';
import { SERVER_CLAIM, toolMarks } from './tool-marks.js';

const labels = (annotations: Parameters<typeof toolMarks>[0], all = false) =>
  toolMarks(annotations, all).map((mark) => mark.label);

describe("a tool's marks, in every view's words", () => {
  it('marks what the server claims: read-only wins over destructive, open world beside either', () => {
    expect(labels({ destructiveHint: true, openWorldHint: true })).toEqual(['Destructive', 'Open world']);
    expect(labels({ readOnlyHint: true, destructiveHint: true })).toEqual(['Read-only']);
    expect(labels({ destructiveHint: false, openWorldHint: false })).toEqual([]);
    expect(labels(undefined)).toEqual([]);
    expect(SERVER_CLAIM).toBe("the server's claim");
  });

  it('adds Safe to repeat only where there is room (the detail)', () => {
    expect(labels({ idempotentHint: true })).toEqual([]);
    expect(labels({ idempotentHint: true }, true)).toEqual(['Safe to repeat']);
  });
});
