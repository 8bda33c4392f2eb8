/**
 * Sites: which sites have Toolgate's page API (turned on by the person), which tools each may use,
 * and the two ways back: Revoke (the tools, at once) and Turn off (the page API too).
 */

import { useSignal } from '@preact/signals';
import { type ServerNames, serverNames } from '../../src/session/index.js';
import { visibleToolName } from '../../src/ui/index.js';
import type { RemoteController } from '../remote/remote-controller.js';
import type { SiteGrant } from '../site-access.js';
import { turnOffSite } from '../site-switch.js';
import { InsecureOriginNote } from './insecure-origin-note.js';
import { TurnOnSiteForm } from './turn-on-site.js';

export interface SitesViewProps {
  remote: RemoteController;
  /** The sites turned on now (site-switch.ts watches Chrome's permissions). */
  turnedOn: readonly string[];
  /** The tab the person is looking at, when Chrome shows it: suggested in the form. */
  activeOrigin?: string | undefined;
}

export function SitesView({ remote, turnedOn, activeOrigin }: SitesViewProps) {
  const problem = useSignal('');
  const grants = new Map(remote.sites.value.map((grant) => [grant.origin, grant]));
  const origins = [...new Set([...turnedOn, ...grants.keys()])].sort();
  // Servers by the label the panel shows everywhere else, not by their ids.
  const names = serverNames(remote.servers.value);
  const fail = (error: Error) => {
    problem.value = error.message;
  };

  return (
    <section class="tg-view" aria-labelledby="tg-sites-heading">
      <h2 id="tg-sites-heading">Sites</h2>
      <p class="tg-muted">
        Web pages see nothing of Toolgate unless you turn it on for their site. A site you turn on can ask
        through <code>window.toolgate.requestAccess()</code>; you choose the tools, and each call it makes
        waits for your approval unless you remember an approval for that site.
      </p>
      <TurnOnSiteForm suggested={activeOrigin} />
      {origins.length === 0 && <p>No site is turned on.</p>}
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      <ul class="tg-server-list" aria-label="Sites">
        {origins.map((origin) => (
          <SiteRow
            key={origin}
            origin={origin}
            on={turnedOn.includes(origin)}
            grant={grants.get(origin)}
            names={names}
            onRevoke={() => void remote.revokeSite(origin).catch(fail)}
            onAgent={(on) => void remote.setSiteAgent(origin, on).catch(fail)}
            onTurnOff={() =>
              // The worker hears the permission go, revokes the tools and closes the site's pages.
              void turnOffSite(origin).catch(fail)
            }
          />
        ))}
      </ul>
    </section>
  );
}

function SiteRow(props: {
  origin: string;
  on: boolean;
  grant: SiteGrant | undefined;
  names: ServerNames;
  onRevoke: () => void;
  onAgent: (on: boolean) => void;
  onTurnOff: () => void;
}) {
  const { origin, on, grant } = props;
  return (
    <li class="tg-server">
      <div class="tg-server-head">
        <strong class="tg-mono">{origin}</strong>
        <span class="tg-muted tg-site-state">{on ? 'on' : 'off'}</span>
        {grant && (
          <button
            type="button"
            class="tg-deny"
            aria-label={`Revoke access for ${origin}`}
            onClick={props.onRevoke}
          >
            Revoke
          </button>
        )}
        {on && (
          <button type="button" aria-label={`Turn off ${origin}`} onClick={props.onTurnOff}>
            Turn off
          </button>
        )}
      </div>
      <InsecureOriginNote origin={origin} />
      <p class="tg-muted">
        {grant
          ? `Since ${new Date(grant.grantedAt).toLocaleString()}: ${grant.tools.map((tool) => `${visibleToolName(tool.toolName)} on ${props.names(tool.serverId)}`).join(', ')}`
          : 'No tools: the site has not been given any (it asks with requestAccess()).'}
        {grant && !on && ' Turned off, so its pages cannot use them until you turn it on again.'}
      </p>
      {grant && grant.tools.length > 0 && (
        <label class="tg-row">
          <input
            type="checkbox"
            checked={grant.agent === true}
            onChange={(event) => props.onAgent((event.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Let the browser’s agent on this site use them (WebMCP; each call asked)
        </label>
      )}
    </li>
  );
}
