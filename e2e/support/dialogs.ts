/**
 * A newly shown dialog ignores clicks and acting keys for a moment (src/session/dialog-arming.ts).
 * Playwright's click waits for the buttons to be enabled by itself; a test that presses keys waits
 * for this condition first, never for a time.
 */
import { expect, type Locator } from '@playwright/test';

/** Resolves once `dialog` is shown and takes input (its controls no longer read as disabled). */
export async function untilArmed(dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveAttribute('data-arming');
}
