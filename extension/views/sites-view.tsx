/** Sites: which web pages may use which tools, and a Revoke that takes effect at once. */

import { useSignal } from '@preact/signals';
import type { RemoteController } from '../remote/remote-controller.js';

export function SitesView({ remote }: { remote: RemoteController }) {
  const problem = useSignal('');
  const sites = remote.sites.value;
  return (
    <section class="tg-view" aria-labelledby="tg-sites-heading">
      <h2 id="tg-sites-heading">Sites</h2>
      <p class="tg-muted">
        Web pages ask through <code>window.toolgate.requestAccess()</code>; you choose the tools. Calls from a
        site still wait for your approval.
      </p>
      {sites.length === 0 && <p>No site has access.</p>}
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      <ul class="tg-server-list">
        {sites.map((site) => (
          <li key={site.origin} class="tg-server">
            <div class="tg-server-head">
              <strong class="tg-mono">{site.origin}</strong>
              <button
                type="button"
                class="tg-deny"
                aria-label={`Revoke access for ${site.origin}`}
                onClick={() =>
                  void remote.revokeSite(site.origin).catch((error: Error) => {
                    problem.value = error.message;
                  })
                }
              >
                Revoke
              </button>
            </div>
            <p class="tg-muted">
              Since {new Date(site.grantedAt).toLocaleString()}:{' '}
              {site.tools.map((tool) => `${tool.toolName} (${tool.serverId})`).join(', ')}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
