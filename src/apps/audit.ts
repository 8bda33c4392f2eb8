/**
 * Apps in the audit log: when an app is shown, one entry records which app (its resource URI, as
 * the caller its own calls will carry), for which tool result, and the content security policy it
 * runs under, with any parts of its declared policy that were ignored. Written through the gate's
 * AuditSink like any call (`apps/show`, through gate/action-record.ts), so the chain covers it; the app's own tool calls are
 * recorded by the gate under the same caller.
 */

import { type AuditSink, recordAction } from '../gate/index.js';
import { quickHash } from '../protocol/index.js';

interface AppShown {
  serverId: string;
  resourceUri: string;
  /** The tool whose result the app shows. */
  toolName: string;
  /** The policy the app's document and frame carry. */
  csp: string;
  /** Parts of the app's declared policy Toolgate dropped (not an origin, a smuggled directive). */
  ignored: readonly string[];
}

/** Records that an app was shown (an `apps/show` action bound to the hash of its policy). */
export async function recordAppShown(sink: AuditSink, shown: AppShown, now: () => number = Date.now) {
  const details = {
    resource: shown.resourceUri,
    forTool: shown.toolName,
    csp: shown.csp,
    ...(shown.ignored.length > 0 ? { ignored: [...shown.ignored] } : {}),
  };
  await recordAction(
    sink,
    {
      serverId: shown.serverId,
      action: 'apps/show',
      // Binds the entry to the exact policy: another policy is another hash.
      boundTo: quickHash(shown.csp),
      caller: { kind: 'mcp-app', label: shown.resourceUri, server: shown.serverId },
      details,
      decision: {
        verdict: 'allow',
        source: { kind: 'default', reason: 'app-shown' },
        reason:
          'The app was shown under this content security policy; each of its tool calls is asked separately.',
      },
    },
    { outcome: 'success', result: { content: [{ type: 'text', text: `Shown under: ${shown.csp}` }] } },
    now,
  );
}
