/**
 * Steps 1 to 3 of the one flow, each refusing on record when it stops the call: resolve the tool
 * (and the call's trace context before it), validate the arguments, decide by policy.
 */

import type { CatalogEntry, McpClient } from '../client/index.js';
import { type CallContext, refuse } from './call-context.js';
import { AmbiguousToolError, UncheckedArgumentsError } from './errors.js';
import type { ToolPins } from './pins.js';
import type { PolicyOutcome } from './policy-types.js';
import { assertNotDenied, assertValid, describeError, resolveTool } from './steps.js';
import { type CallTrace, traceFor } from './trace-context.js';
import type { PinnedTool, TrustLevel, ValidationReport } from './types.js';

/** The tool a call resolved to: its connection, catalog entry and pinned definition. */
export interface ResolvedTool {
  client: McpClient;
  entry: CatalogEntry;
  pins: ToolPins;
  pinned: PinnedTool;
}

/** What the policy decided, when, and the trust it decided under. */
export interface Decided extends PolicyOutcome {
  trust: TrustLevel;
  decidedAt: number;
}

/**
 * The call's trace context: the host's (checked first: a malformed one is refused, on record), or
 * none yet (the client starts one). It goes in the call's _meta and on every record of the call.
 */
export async function traceStep(call: CallContext): Promise<CallTrace | undefined> {
  const { trace, serverId, toolName } = call.request;
  if (!trace) return undefined;
  try {
    return traceFor(trace, serverId, toolName);
  } catch (error) {
    await refuse(call, 'denied', describeError(error).message);
    throw error;
  }
}

/** Step 1: the tool in the catalog, pinned (definition + hash); one name must mean one definition. */
export async function resolveStep(call: CallContext): Promise<ResolvedTool> {
  const { serverId, toolName } = call.request;
  const { client, entry, sameName } = await resolveTool(call.gate.options.servers, serverId, toolName).catch(
    async (error: unknown) => {
      // Not connected, not listed, excluded for a bad definition: refused, and on record like any refusal.
      await refuse(call, 'denied', describeError(error).message);
      throw error;
    },
  );
  const pins = call.gate.pinsOf(serverId);
  const pinned = pins.pin(entry.tool);
  call.definitionHash = pinned.definitionHash;
  // Two different tools under one name: the person could be shown one while the other runs.
  const variants = new Set(sameName.map((e) => pins.pin(e.tool).definitionHash));
  if (variants.size > 1) {
    const ambiguous = new AmbiguousToolError(serverId, toolName, variants.size);
    await refuse(call, 'denied', ambiguous.message);
    throw ambiguous;
  }
  return { client, entry, pins, pinned };
}

/**
 * Step 2: invalid arguments stop here; nothing is sent. Arguments nobody could check go no further
 * for a site, an app or a host's code, unless the host accepted that for this server; the person's
 * own calls are asked, with an acknowledgement (approve-step.ts).
 */
export async function validateStep(call: CallContext, tool: ResolvedTool): Promise<ValidationReport> {
  const { serverId, toolName, caller } = call.request;
  const { options } = call.gate;
  const validation = await options.validator.validate(tool.entry.tool.inputSchema, call.proposed);
  if (validation.status === 'invalid') {
    await refuse(call, 'invalid-arguments', 'the arguments do not match the input schema', { validation });
    assertValid(serverId, toolName, validation);
  }
  const acceptsUnchecked = caller.kind === 'person' || options.acceptUncheckedArguments?.(serverId) === true;
  if (validation.status === 'skipped' && !acceptsUnchecked) {
    const refusal = new UncheckedArgumentsError(
      serverId,
      toolName,
      validation.reason,
      'Toolgate does not send unchecked arguments on behalf of an app or a web site. Call the tool from the panel to review them yourself, or let the host accept unchecked arguments for this server.',
    );
    await refuse(call, 'denied', refusal.message, { validation });
    throw refusal;
  }
  return validation;
}

/** Step 3: policy over rules, remembered approvals, trust (annotations count only when trusted). */
export async function decideStep(
  call: CallContext,
  tool: ResolvedTool,
  validation: ValidationReport,
): Promise<Decided> {
  const { serverId, toolName, caller } = call.request;
  const { options } = call.gate;
  const trust = await options.policy.trustOf(serverId);
  const decided = await options.policy.decide({
    caller,
    pinned: tool.pinned,
    serverId,
    arguments: call.proposed,
    validation,
    trust,
    serverLabel: options.serverLabel?.(serverId) ?? serverId,
  });
  const decidedAt = call.gate.now();
  // Known from here on to every refusal record of the call.
  call.decision = decided.decision;
  call.decidedAt = decidedAt;
  if (decided.decision.verdict === 'deny') {
    await refuse(call, 'denied', decided.decision.reason);
    assertNotDenied(serverId, toolName, decided.decision);
  }
  return { ...decided, trust, decidedAt };
}
