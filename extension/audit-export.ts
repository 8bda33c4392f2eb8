/**
 * The worker's audit log, exported to the organisation's OpenTelemetry collector when an
 * enterprise policy names one (managed storage, `auditCollector`: see managed-schema.json). The
 * worker has no window: the exporter needs only fetch, IndexedDB, timers and Web Locks, which a
 * service worker has. The log signs its head on its own (every 1,000 events or 10 s after an
 * append), and the export ships each signed head as a record of its own, so the collector keeps a
 * copy the browser cannot rewrite. Chrome stops an idle worker: what it had not sent goes at its
 * next start, from the cursor the collector acknowledged.
 *
 * Reading the policy is one small function (readAuditCollector); what it reads is parsed by
 * parseAuditCollector and started by startPolicyExport, which the tests drive in a worker with the
 * real exporter and receiver (managed storage cannot be set from a test).
 */

import { type ReadonlySignal, signal } from '@preact/signals';
import {
  type AuditLog,
  type OtlpExport,
  type OtlpExportOptions,
  type OtlpExportStatus,
  startOtlpExport,
} from '../src/audit/index.js';

/** The policy value, checked. */
export interface AuditCollectorPolicy {
  /** The collector's OTLP/HTTP URL: https, or http to this computer (a local agent). */
  url: string;
  /** Headers for every request (the collector's API key). Never logged or shown. */
  headers?: Record<string, string>;
  /** service.name of the exported records. Default 'toolgate-extension'. */
  serviceName?: string;
}

/** What the policy says: nothing (not set), a collector, or why the value was not used. */
export type ParsedCollector = { policy?: AuditCollectorPolicy; problem?: string };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks the policy value. A wrong value is refused whole and said so (never half used: a policy
 * with its key dropped would only earn 401s); the problem names fields, never header values.
 */
export function parseAuditCollector(value: unknown): ParsedCollector {
  if (value === undefined || value === null) return {};
  const refuse = (why: string): ParsedCollector => ({
    problem: `The auditCollector policy is not used: ${why}. The audit log stays in this browser only; ask your administrator to fix the policy.`,
  });
  if (typeof value !== 'object' || Array.isArray(value)) return refuse('it is not an object');
  const { url, headers, serviceName } = value as Record<string, unknown>;
  if (typeof url !== 'string' || !url) return refuse('it has no url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The policy is the administrator's: say what is wrong with it.
    return refuse('its url is not a URL');
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback(parsed.hostname)))
    return refuse(
      'its url must be https (records hold what tools were called with), or http to this computer',
    );
  if (parsed.username || parsed.password) return refuse('its url carries credentials; put them in headers');
  const checkedHeaders: Record<string, string> = {};
  if (headers !== undefined) {
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
      return refuse('its headers are not an object of names and values');
    for (const [name, headerValue] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) return refuse(`"${name.slice(0, 40)}" is not a header name`);
      if (typeof headerValue !== 'string' || /[\r\n\0]/.test(headerValue))
        return refuse(`the value of header "${name}" is not a single-line string`);
      checkedHeaders[name] = headerValue;
    }
  }
  if (serviceName !== undefined && (typeof serviceName !== 'string' || !serviceName.trim()))
    return refuse('its serviceName is not a non-empty string');
  return {
    policy: {
      url,
      ...(Object.keys(checkedHeaders).length > 0 ? { headers: checkedHeaders } : {}),
      ...(typeof serviceName === 'string' ? { serviceName: serviceName.trim() } : {}),
    },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Starts exporting `log` as the policy says; `extra` adds what the worker knows (server URLs, version). */
export function startPolicyExport(
  log: AuditLog,
  policy: AuditCollectorPolicy,
  extra: Omit<OtlpExportOptions, 'url' | 'headers' | 'serviceName'> = {},
): OtlpExport {
  return startOtlpExport(log, {
    ...extra,
    url: policy.url,
    ...(policy.headers ? { headers: policy.headers } : {}),
    serviceName: policy.serviceName ?? 'toolgate-extension',
  });
}

/** Reads the policy from managed storage; none set, or no managed storage here, is "not set". */
export async function readAuditCollector(): Promise<ParsedCollector> {
  try {
    return parseAuditCollector((await chrome.storage.managed.get('auditCollector')).auditCollector);
  } catch {
    // No managed storage in this browser (or no policy) means no collector is configured.
    return {};
  }
}

/**
 * Exports while the policy names a collector, and follows it: a changed or removed policy stops the
 * running export and starts the one it now asks for. `state()` is for the worker's diagnostics.
 */
export function followAuditCollector(
  log: AuditLog,
  extra: Omit<OtlpExportOptions, 'url' | 'headers' | 'serviceName'> = {},
): { state(): string; status: ReadonlySignal<OtlpExportStatus | null>; resume(): Promise<void> } {
  let running: OtlpExport | undefined;
  let unsubscribe: (() => void) | undefined;
  // The side panel's one line (over the panel port): null while no export runs.
  const status = signal<OtlpExportStatus | null>(null);
  let said = 'no auditCollector policy: the audit log is not exported';
  const apply = async () => {
    const { policy, problem } = await readAuditCollector();
    running?.stop();
    running = undefined;
    unsubscribe?.();
    status.value = null;
    if (problem) console.error(`Toolgate: ${problem}`);
    said = problem ?? 'no auditCollector policy: the audit log is not exported';
    if (!policy) return;
    try {
      const started = startPolicyExport(log, policy, extra);
      running = started;
      status.value = started.status();
      unsubscribe = started.onStatus((next) => {
        if (running === started) status.value = next;
      });
    } catch (error) {
      said = `The auditCollector policy is not used: ${(error as Error).message}`;
      console.error(`Toolgate: ${said}`);
    }
  };
  void apply();
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'managed' && 'auditCollector' in changes) void apply();
  });
  return {
    status,
    resume: async () => running?.resume(),
    state: () => {
      if (!running) return said;
      const status = running.status();
      return `${status.state}, acknowledged through event ${status.acknowledgedSeq} of ${status.headSeq}${status.problem ? `: ${status.problem}` : ''}`;
    },
  };
}
