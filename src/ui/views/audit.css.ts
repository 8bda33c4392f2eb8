/**
 * The audit view's own CSS, in its lazy chunk (the widget's first screen never pays for it): the
 * toolbar, the outcome chips and marks, the table's clickable rows, the side drawer (the whole
 * width below 720 px of panel), and the settings section under the table.
 */

const warnLight = '--tg-audit-warn:#8a5a00;';
const warnDark = '--tg-audit-warn:#d29922;';

export const auditStyles = `
:host{${warnLight}}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){${warnDark}}}
:host([theme=dark]){${warnDark}}
.tg-audit-toolbar{display:flex;flex-wrap:wrap;gap:var(--tg-s2);align-items:center;margin:0 0 var(--tg-s2)}
.tg-audit-toolbar label{margin:0}
.tg-audit-search{flex:1 1 16em;min-width:0}
.tg-audit-search input{width:100%}
.tg-audit-toolbar select{max-width:14em}
.tg-audit-chips{display:flex;flex-wrap:wrap;gap:var(--tg-s1);list-style:none;padding:0;margin:0 0 var(--tg-s2)}
.tg-chip{border-radius:999px;padding:2px 10px;font-size:13px;display:inline-flex;gap:4px;align-items:center}
.tg-chip[aria-pressed=true]{border-width:2px;padding:1px 9px;font-weight:600;background:var(--tg-bg)}
.tg-chip-count{font-variant-numeric:tabular-nums}
.tg-tone-ok{color:var(--tg-ok)}.tg-chip.tg-tone-ok{border-color:var(--tg-ok)}
.tg-tone-bad{color:var(--tg-danger)}.tg-chip.tg-tone-bad{border-color:var(--tg-danger)}
.tg-tone-warn{color:var(--tg-audit-warn)}.tg-chip.tg-tone-warn{border-color:var(--tg-audit-warn)}
.tg-tone-neutral{color:var(--tg-muted)}
.tg-outcome{white-space:nowrap;font-weight:600}
.tg-audit-about{margin:0 0 var(--tg-s2)}
.tg-log-table tbody tr{cursor:pointer}
.tg-log-table tbody tr:hover{background:var(--tg-surface)}
.tg-log-table tbody tr[aria-current=true]{background:var(--tg-surface);box-shadow:inset 3px 0 0 var(--tg-accent)}
.tg-log-open{background:none;border:0;padding:0;text-align:left;color:var(--tg-accent);text-decoration:underline;text-underline-offset:2px}
.tg-log-when{white-space:nowrap;font-variant-numeric:tabular-nums}
.tg-audit-actions{display:flex;gap:var(--tg-s2);flex-wrap:wrap;align-items:flex-start;margin:var(--tg-s2) 0}
.tg-audit-confirm{border:1px solid var(--tg-border);border-left:4px solid var(--tg-accent);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:var(--tg-s2) 0}
.tg-audit-confirm p{margin:2px 0}.tg-audit-confirm fieldset{border:0;padding:0}
.tg-audit-confirm .tg-primary{background:var(--tg-accent);color:var(--tg-bg);border-color:var(--tg-accent);font-weight:600}
.tg-audit-settings{border-top:1px solid var(--tg-border);margin-top:var(--tg-s4);padding-top:var(--tg-s2)}
.tg-audit-drawer-backdrop{position:fixed;inset:0;background:rgb(0 0 0 / .3);display:flex;justify-content:flex-end;z-index:2147483000}
.tg-audit-drawer{background:var(--tg-bg);color:var(--tg-fg);width:min(480px,100%);height:100%;overflow:auto;padding:var(--tg-s3) var(--tg-s4);border-left:1px solid var(--tg-border);box-shadow:-4px 0 16px rgb(0 0 0 / .2)}
@container (max-width:719px){.tg-audit-drawer{width:100%;border-left:0}}
.tg-audit-drawer-head{display:flex;gap:var(--tg-s2);align-items:flex-start;justify-content:space-between}
.tg-audit-drawer-head h3{margin-top:0}
.tg-audit-facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px var(--tg-s3);margin:var(--tg-s2) 0}
.tg-audit-facts dt{color:var(--tg-muted)}.tg-audit-facts dd{margin:0;overflow-wrap:anywhere}
.tg-audit-json,.tg-audit-text{font:12px/1.4 var(--tg-mono);background:var(--tg-surface);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2);white-space:pre-wrap;overflow-wrap:anywhere;margin:var(--tg-s1) 0}
.tg-audit-raw{margin-top:var(--tg-s3)}.tg-audit-raw summary{cursor:pointer}
`;
