/** Why the gate stopped a call before or instead of sending it. Each message names server and tool. */

import { ToolgateError } from '../protocol/index.js';
import type { SchemaIssue } from './types.js';

/** The arguments do not match the tool's input schema; nothing was sent. */
export class InvalidArgumentsError extends ToolgateError {
  readonly kind = 'invalid-arguments';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly issues: SchemaIssue[],
  ) {
    super(
      `${toolName} on ${serverId} was not called: its arguments do not match the tool's schema (${issues
        .slice(0, 3)
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join(
          '; ',
        )}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}). Fix the arguments and try again.`,
    );
    this.name = 'InvalidArgumentsError';
  }
}

/**
 * A rule or a person denied the call, or nobody answered in time (`timeout`: the gate denied it when
 * the approval's deadline passed); nothing was sent.
 */
export class DeniedError extends ToolgateError {
  readonly kind = 'denied';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly by: 'policy' | 'person' | 'timeout',
    readonly reason: string,
  ) {
    super(
      by === 'person'
        ? `The person denied ${toolName} on ${serverId}${reason ? `: ${reason}` : '.'}`
        : by === 'timeout'
          ? `${toolName} on ${serverId} was denied because nobody answered its approval (${reason}); nothing was sent. Call it again when someone can look.`
          : `${toolName} on ${serverId} is denied by policy: ${reason}`,
    );
    this.name = 'DeniedError';
  }
}

/**
 * The arguments could not be checked against the tool's schema (too large, a risky pattern, an
 * unknown dialect) and nobody who may accept that did: nothing was sent.
 */
export class UncheckedArgumentsError extends ToolgateError {
  readonly kind = 'unchecked-arguments';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly reason: string,
    detail: string,
  ) {
    super(
      `${toolName} on ${serverId} was not called: its arguments could not be checked against the tool's schema (${reason}). ${detail}`,
    );
    this.name = 'UncheckedArgumentsError';
  }
}

/**
 * The tool's definition changed after the call was approved, when the client had to send it again
 * (a lost response stream, an expired session, a stale schema): it is not re-sent under a definition
 * nobody approved.
 */
export class DefinitionChangedError extends ToolgateError {
  readonly kind = 'definition-changed';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
  ) {
    super(
      `${toolName} on ${serverId} changed after it was approved, when Toolgate had to send it again; it was not sent again. Call it again to review what changed.`,
    );
    this.name = 'DefinitionChangedError';
  }
}

/** The server lists several different tools under one name: Toolgate cannot tell which would run. */
export class AmbiguousToolError extends ToolgateError {
  readonly kind = 'ambiguous-tool';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    count: number,
  ) {
    super(
      `${serverId} lists ${count} different tools named "${toolName}"; Toolgate will not call any of them, because it cannot show you the one the server would run. Ask the server's maintainer to give each tool its own name.`,
    );
    this.name = 'AmbiguousToolError';
  }
}

/** The server or tool is not known (not connected, not listed). */
export class UnknownToolError extends ToolgateError {
  readonly kind = 'unknown-tool';
  constructor(message: string) {
    super(message);
    this.name = 'UnknownToolError';
  }
}

/** The audit log could not record the call, so it was not sent. */
export class AuditUnavailableError extends ToolgateError {
  readonly kind = 'audit-unavailable';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly auditError: unknown,
  ) {
    super(
      `${toolName} on ${serverId} was not called because the audit log could not record it (${
        auditError instanceof Error ? auditError.message : String(auditError)
      }). Free space by exporting and pruning the log, then try again.`,
    );
    this.name = 'AuditUnavailableError';
  }
}
