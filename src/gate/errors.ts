/** Why the gate stopped a call before or instead of sending it. Each message names server and tool. */

import { ToolgateError } from '../protocol/errors.js';
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

/** A rule or a person denied the call; nothing was sent. */
export class DeniedError extends ToolgateError {
  readonly kind = 'denied';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly by: 'policy' | 'person',
    readonly reason: string,
  ) {
    super(
      by === 'person'
        ? `The person denied ${toolName} on ${serverId}${reason ? `: ${reason}` : '.'}`
        : `${toolName} on ${serverId} is denied by policy: ${reason}`,
    );
    this.name = 'DeniedError';
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
