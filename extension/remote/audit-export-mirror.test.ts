import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import {
  type AuditLog,
  type OtlpExport,
  type OtlpExportStatus,
  whenExporting,
} from '../../src/audit/index.js';
import { controllerWithServer, until } from '../../test/support/extension-controller.js';
import { portPair } from '../../test/support/runtime-ports.js';
import { createSiteAccess } from '../site-access.js';
import { servePanel } from './controller-host.js';
import { createRemoteController } from './remote-controller.js';

const stopped: OtlpExportStatus = {
  state: 'stopped',
  acknowledgedSeq: 3,
  headSeq: 5,
  problem: 'The collector https://otel.example answered 401: fix its API key, then resume.',
  rejectedRecords: 0,
  skippedEvents: 0,
};

describe('the side panel shows the worker’s audit export', () => {
  it('carries its status over the panel port to the view’s lookup, and Resume back to the worker', async () => {
    const { controller } = await controllerWithServer();
    const siteAccess = await createSiteAccess({ load: async () => [], save: async () => undefined });
    const status = signal<OtlpExportStatus | null>(null);
    const resumed: string[] = [];
    const auditExport = {
      status,
      resume: async () => {
        resumed.push('resume');
        // The exporter deletes a solved problem rather than setting it to undefined.
        const { problem: _solved, ...unproblematic } = stopped;
        status.value = { ...unproblematic, state: 'sending' };
      },
    };
    // The page's log is only the key the view looks its export up by: a stand-in, because a real
    // AuditLog needs IndexedDB, which Node has not (the built extension uses the real one).
    const pageLog = {} as AuditLog;
    const remote = createRemoteController({
      connect: () => {
        const [worker, page] = portPair('toolgate-panel');
        servePanel({ port: worker, controller, siteAccess, auditExport });
        return page;
      },
      openAuditLog: async () => pageLog,
      reconnectDelayMs: 1,
    });
    await remote.ready;
    let seen: OtlpExport | undefined;
    whenExporting(pageLog, (running) => {
      seen = running;
    });
    // No policy, no export: nothing to show.
    await until(() => remote.connected.value, 'the port');
    expect(seen).toBeUndefined();

    status.value = stopped;
    await until(() => seen !== undefined, 'the export announced for the page’s log');
    await until(() => seen?.status().state === 'stopped', 'the stopped state');
    expect(seen!.status().problem).toContain('401');

    const states: string[] = [];
    seen!.onStatus((next) => states.push(next.state));
    await seen!.resume();
    expect(resumed).toEqual(['resume']);
    await until(() => states.includes('sending'), 'the worker’s new state');
    expect(() => seen!.stop()).toThrow(/background worker/);
    remote.close();
  });
});
