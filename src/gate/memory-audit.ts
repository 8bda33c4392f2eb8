/** An audit sink that keeps records in memory: for tests and for hosts that log elsewhere. */

import type {
  AuditSink,
  FinalRecord,
  PendingRecord,
  RefusalRecord,
  ResendRecord,
  TaskRecord,
} from './types.js';

export interface MemoryAuditEntry {
  invocationId: string;
  pending?: PendingRecord;
  /** Every later send of the call, in order. */
  resends: ResendRecord[];
  /** The task it ran as: its id and every status change, in order. */
  tasks: TaskRecord[];
  final?: FinalRecord;
  refusal?: RefusalRecord;
}

export class MemoryAuditSink implements AuditSink {
  readonly entries: MemoryAuditEntry[] = [];
  private readonly byId = new Map<string, MemoryAuditEntry>();

  async pending(record: PendingRecord): Promise<void> {
    this.entry(record.invocationId).pending = structuredClone(record);
  }

  async resent(record: ResendRecord): Promise<void> {
    this.entry(record.invocationId).resends.push(structuredClone(record));
  }

  async task(record: TaskRecord): Promise<void> {
    this.entry(record.invocationId).tasks.push(structuredClone(record));
  }

  async final(record: FinalRecord): Promise<void> {
    this.entry(record.invocationId).final = structuredClone(record);
  }

  async refusal(record: RefusalRecord): Promise<void> {
    this.entry(record.invocationId).refusal = structuredClone(record);
  }

  /** The entry of one invocation. */
  get(invocationId: string): MemoryAuditEntry | undefined {
    return this.byId.get(invocationId);
  }

  private entry(invocationId: string): MemoryAuditEntry {
    let entry = this.byId.get(invocationId);
    if (!entry) {
      entry = { invocationId, resends: [], tasks: [] };
      this.byId.set(invocationId, entry);
      this.entries.push(entry);
    }
    return entry;
  }
}
