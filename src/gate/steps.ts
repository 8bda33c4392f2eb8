/**
 * The pipeline's steps, each a small function with its own tests. pipeline.ts only wires them.
 */

import type { CatalogEntry, McpClient } from '../client/index.js';
import {
  type CallToolResult,
  ConnectionClosedError,
  type JsonObject,
  RequestCancelledError,
  RequestTimeoutError,
  TaskEndedError,
  ToolgateError,
} from '../protocol/index.js';
import { DeniedError, InvalidArgumentsError, UnknownToolError } from './errors.js';
import type {
  ApprovalAnswer,
  Decision,
  InvocationOutcome,
  RememberScope,
  ValidationReport,
} from './types.js';

/** Step 1: find the server and the tool; a stale catalog is refreshed once before giving up. */
export async function resolveTool(
  servers: ReadonlyMap<string, McpClient>,
  serverId: string,
  toolName: string,
): Promise<{ client: McpClient; entry: CatalogEntry; sameName: CatalogEntry[] }> {
  const client = servers.get(serverId);
  if (!client) {
    const known = [...servers.keys()];
    throw new UnknownToolError(
      `No server "${serverId}" is connected${known.length ? ` (connected: ${known.join(', ')})` : ''}: add it first.`,
    );
  }
  // A failed connection takes no calls: refused before its catalog, a person or the server is asked.
  if (client.failure)
    throw new ConnectionClosedError(
      `${serverId} cannot take calls, so nothing was sent: ${client.failure.message}`,
    );
  if (!client.offersTools)
    throw new UnknownToolError(
      `${serverId} offers no tools: it did not declare the "tools" capability, so Toolgate sends it no tool calls.`,
    );
  let snapshot = await client.listCatalog();
  let entry = snapshot.entries.find((e) => e.tool.name === toolName);
  if (!entry) {
    // The tool may be new since the last listing.
    snapshot = await client.listCatalog({ refresh: true });
    entry = snapshot.entries.find((e) => e.tool.name === toolName);
  }
  if (!entry) {
    const rejected = snapshot.rejected.find((r) => r.name === toolName);
    throw new UnknownToolError(
      rejected
        ? `${serverId} lists "${toolName}" but Toolgate excluded it: ${rejected.reason}`
        : `${serverId} has no tool named "${toolName}"${
            snapshot.entries.length
              ? ` (it offers ${snapshot.entries.length} tools, e.g. ${snapshot.entries
                  .slice(0, 5)
                  .map((e) => e.tool.name)
                  .join(', ')})`
              : ''
          }.`,
    );
  }
  // Duplicates are kept in the catalog (and warned): the pipeline refuses when they differ.
  const sameName = snapshot.entries.filter((e) => e.tool.name === toolName);
  return { client, entry, sameName };
}

/** Step 2 (and after edits): invalid arguments stop the call here. */
export function assertValid(serverId: string, toolName: string, report: ValidationReport): void {
  if (report.status === 'invalid') throw new InvalidArgumentsError(serverId, toolName, report.issues);
}

/** Step 3: a policy denial stops the call here. */
export function assertNotDenied(serverId: string, toolName: string, decision: Decision): void {
  if (decision.verdict === 'deny') throw new DeniedError(serverId, toolName, 'policy', decision.reason);
}

/** What an approval settled: the exact arguments to send and how long to remember the yes. */
interface Approved {
  arguments: JsonObject;
  remember: RememberScope;
  decidedBy?: string;
  edited: boolean;
}

/**
 * Step 4: turns the approver's answer into the arguments that will be sent. They are deep-copied
 * here, so nothing the caller or the dialog does afterwards can change what leaves.
 */
export function settleApproval(
  serverId: string,
  toolName: string,
  proposed: JsonObject,
  answer: ApprovalAnswer,
): Approved {
  if (answer.action === 'deny') throw new DeniedError(serverId, toolName, 'person', answer.reason ?? '');
  const edited = answer.arguments !== undefined;
  return {
    arguments: structuredClone(answer.arguments ?? proposed),
    remember: answer.remember,
    ...(answer.decidedBy ? { decidedBy: answer.decidedBy } : {}),
    edited,
  };
}

/** Classifies how a sent call ended, for the audit record. */
export function outcomeOfError(error: unknown): InvocationOutcome {
  if (error instanceof RequestCancelledError) return 'cancelled';
  if (error instanceof RequestTimeoutError) return 'timed-out';
  // A task that ran out its time to live timed out; one cancelled at the server was cancelled.
  if (error instanceof TaskEndedError && error.reason === 'expired') return 'timed-out';
  if (error instanceof TaskEndedError && error.reason === 'cancelled') return 'cancelled';
  return 'protocol-error';
}

/** How a result ended: a tool error, an output that broke its schema, or success. */
export function outcomeOfResult(
  result: CallToolResult,
  output: ValidationReport | undefined,
): InvocationOutcome {
  if (result.isError) return 'tool-error';
  if (output?.status === 'invalid') return 'invalid-output';
  return 'success';
}

/** An error as the audit log keeps it. */
export function describeError(error: unknown): { kind: string; message: string } {
  if (error instanceof ToolgateError) return { kind: error.kind, message: error.message };
  if (error instanceof Error) return { kind: error.name, message: error.message };
  return { kind: 'unknown', message: String(error) };
}
