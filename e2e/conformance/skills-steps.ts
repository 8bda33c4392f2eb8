/**
 * The Skills extension's conformance scenarios (SEP-2640), acted out with Toolgate's skills room.
 * Registered into the harness's scenario table by name (harness.ts).
 */

import type { ConnectOptions, McpClient } from '../../src/index.js';

/** The part of the harness's scenario context these steps use. */
export interface SkillsScenarioContext {
  log: (line: string) => void;
  connectOptions: ConnectOptions;
  /** Set here once connected, so the harness closes it whatever happens. */
  client?: McpClient;
}

/** Scenario name -> step. */
export const SKILLS_SCENARIOS: Record<string, (ctx: SkillsScenarioContext) => Promise<void>> = {};
