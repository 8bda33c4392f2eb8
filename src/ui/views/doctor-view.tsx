/**
 * The connection doctor's report as a timeline: each step passed, failed or skipped, its reason,
 * and (folded) the requests and answers it saw, redacted. For a CORS failure, the fix to hand the
 * server's owner: the exact headers for this page's origin and snippets for Express, Hono, Python
 * (Starlette), Cloudflare Workers, nginx and Caddy, each with a Copy button. Its own chunk, and the doctor itself loads only when this view opens.
 */

import { useEffect, useState } from 'preact/hooks';
import type { DoctorReport, DoctorStep, DoctorExchange as Exchange } from '../../client/index.js';
import type { ServerConfig } from '../../session/index.js';
import { CopyButton } from '../components/copy-button.js';
import { ScrollText } from '../components/scroll-text.js';
import type { DoctorAccess } from '../connection-fix.js';

const CSS = `.tg-doctor{flex-basis:100%;border:1px solid var(--tg-border,#ccc);border-radius:6px;padding:8px;margin-top:8px}
.tg-doctor ol{list-style:none;padding:0;margin:0}.tg-doctor li{border-left:3px solid var(--tg-muted);padding:2px 8px;margin:6px 0}
.tg-doctor li.tg-step-pass{border-color:var(--tg-ok)}.tg-doctor li.tg-step-fail{border-color:var(--tg-danger)}
.tg-doctor pre{white-space:pre-wrap;word-break:break-all;font-size:12px;max-height:240px;overflow:auto}`;

const MARK = { pass: '✓ passed', fail: '✗ failed', skipped: '– skipped' } as const;

/** What the doctor needs of a server: its address, and the headers and sign-in configured for it. */
export interface DoctorTarget {
  url: string;
  name: string;
  headers?: ServerConfig['headers'] | undefined;
  auth?: ServerConfig['auth'] | undefined;
  /** The server's last connection error, as shown (a fresh token refused there is a 401 loop). */
  lastError?: string | undefined;
  /** The host's way past CORS at the refused origin (the extension's "Allow Toolgate to reach"). */
  access?: DoctorAccess | undefined;
}

export function DoctorView({ url, name, headers, auth, lastError, access }: DoctorTarget) {
  const [report, setReport] = useState<DoctorReport>();
  const [failure, setFailure] = useState<string>();
  const [run, setRun] = useState(0);
  // The host's way past CORS (the extension's "Allow Toolgate to reach <origin>"), when it has one.
  const offer = report?.refusedOrigin && access ? access(report.refusedOrigin) : undefined;
  useEffect(() => {
    let live = true;
    setReport(undefined);
    import('../../client/doctor/diagnose.js')
      .then(({ diagnose }) =>
        diagnose(url, {
          ...(headers ? { headers } : {}),
          ...(auth ? { auth } : {}),
          ...(lastError ? { lastError } : {}),
        }),
      )
      .then(
        (value) => live && setReport(value),
        (error: unknown) => live && setFailure(`The diagnosis could not run: ${String(error)}`),
      );
    return () => {
      live = false;
    };
  }, [url, run]);
  return (
    <section class="tg-doctor" aria-label={`Diagnosis of ${name}`} data-doctor={url}>
      <style>{CSS}</style>
      <h4>Diagnosis of {name}</h4>
      {failure ? (
        <p role="alert">{failure}</p>
      ) : !report ? (
        <p role="status">Checking {url} step by step…</p>
      ) : (
        <>
          <p class="tg-wrap">
            From this page's origin <code>{report.origin}</code> to <code>{url}</code>:
          </p>
          <ol aria-label="Diagnosis steps">
            {report.steps.map((step) => (
              <Step key={step.id} step={step} />
            ))}
          </ol>
          {offer && (
            <section aria-label="Reach it from here" class="tg-doctor-access" data-doctor-access>
              {offer}
            </section>
          )}
          {report.fix && <Fix report={report} />}
          <button type="button" onClick={() => setRun(run + 1)}>
            Diagnose again
          </button>
        </>
      )}
    </section>
  );
}

function Step({ step }: { step: DoctorStep }) {
  return (
    <li class={`tg-step-${step.outcome}`} data-step={step.id} data-outcome={step.outcome}>
      <strong>
        {step.title}: {MARK[step.outcome]}
      </strong>
      <p class="tg-wrap">{step.reason}</p>
      {step.exchanges.length > 0 && (
        <details>
          <summary>
            {step.exchanges.length === 1
              ? 'The request and answer'
              : `${step.exchanges.length} requests and answers`}
          </summary>
          {step.exchanges.map((exchange, index) => (
            <ScrollText key={index}>{exchangeText(exchange)}</ScrollText>
          ))}
        </details>
      )}
    </li>
  );
}

function exchangeText(exchange: Exchange): string {
  const headers = (record: Record<string, string> | undefined) =>
    Object.entries(record ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
  const request = [
    `${exchange.method} ${exchange.url}`,
    headers(exchange.requestHeaders),
    exchange.requestBody ?? '',
  ]
    .filter(Boolean)
    .join('\n');
  const answer = exchange.error
    ? `No answer the page could read: ${exchange.error}`
    : exchange.status === 0
      ? 'An opaque answer (no-cors): the browser hides its status, headers and body from the page.'
      : [`HTTP ${exchange.status}`, headers(exchange.responseHeaders), exchange.responseBody ?? '']
          .filter(Boolean)
          .join('\n');
  return `${request}\n\n${answer}`;
}

function Fix({ report }: { report: DoctorReport }) {
  const fix = report.fix;
  if (!fix) return null;
  const missing = report.steps.find((step) => step.outcome === 'fail' && step.missingHeader)?.missingHeader;
  const headers = { id: 'headers', title: `Response headers for ${report.origin}`, text: fix.headers };
  // One per way servers are built, folded: the owner opens theirs (seven open blocks are a wall).
  const snippets = [
    { id: 'express', title: 'Node: the official SDK with Express (the cors middleware)', text: fix.express },
    { id: 'hono', title: 'Node: Hono (hono/cors)', text: fix.hono },
    {
      id: 'python',
      title: 'Python: the official SDK (FastMCP) on Starlette (CORSMiddleware)',
      text: fix.python,
    },
    { id: 'workers', title: 'Cloudflare Workers (around the fetch handler)', text: fix.workers },
    { id: 'nginx', title: 'nginx in front of the server', text: fix.nginx },
    { id: 'caddy', title: 'Caddy in front of the server', text: fix.caddy },
  ];
  return (
    <section aria-label="The fix for the server's owner" class="tg-doctor-fix">
      <h5>The fix to hand over</h5>
      <p class="tg-wrap">
        {missing ? (
          <>
            The server does not send <code>{missing}</code> as this page needs.{' '}
          </>
        ) : null}
        For pages at <code>{report.origin}</code> it must send:
      </p>
      <div data-fix={headers.id}>
        <p>{headers.title}</p>
        <ScrollText>{headers.text}</ScrollText>
        <CopyButton text={() => headers.text} label={`Copy: ${headers.title}`} />
      </div>
      <p>The same, as configuration for the way the server is built:</p>
      {snippets.map((block) => (
        <details key={block.id} data-fix={block.id}>
          <summary>{block.title}</summary>
          <ScrollText>{block.text}</ScrollText>
          <CopyButton text={() => block.text} label={`Copy: ${block.title}`} />
        </details>
      ))}
    </section>
  );
}
