import { describe, expect, it } from 'vitest';
import type { AccessApprovalRequest } from '../gate/index.js';
import { createPersonQueue } from './person-queue.js';

function accessRequest(signal: AbortSignal): AccessApprovalRequest {
  return {
    invocationId: 'i1',
    serverId: 'notes',
    serverLabel: 'Notes',
    trust: 'untrusted',
    caller: { kind: 'host', label: 'Agent' },
    method: 'resources/read',
    target: { kind: 'resource', uri: 'note://welcome' },
    decision: { verdict: 'ask', reason: 'reads by others are asked', source: { kind: 'default' } },
    signal,
  } as AccessApprovalRequest;
}

describe('the person queue asks for reads and prompt gets', () => {
  it('queues the request until the person answers, then takes it off', async () => {
    const queue = createPersonQueue((id) => id);
    const answer = queue.approver.approveAccess!(accessRequest(new AbortController().signal));
    expect(queue.accesses.value).toHaveLength(1);
    expect(queue.accesses.value[0]!.request.target).toEqual({ kind: 'resource', uri: 'note://welcome' });
    queue.accesses.value[0]!.answer({ action: 'allow', remember: 'once' });
    await expect(answer).resolves.toEqual({ action: 'allow', remember: 'once' });
    expect(queue.accesses.value).toHaveLength(0);
  });

  it('withdraws it when the caller gives up, and denies what waits when the panel closes', async () => {
    const queue = createPersonQueue((id) => id);
    const abort = new AbortController();
    const withdrawn = queue.approver.approveAccess!(accessRequest(abort.signal));
    abort.abort();
    await expect(withdrawn).resolves.toMatchObject({ action: 'deny' });
    expect(queue.accesses.value).toHaveLength(0);
    const waiting = queue.approver.approveAccess!(accessRequest(new AbortController().signal));
    queue.settleAll();
    await expect(waiting).resolves.toMatchObject({ action: 'deny', reason: 'the Toolgate panel was closed' });
  });
});
