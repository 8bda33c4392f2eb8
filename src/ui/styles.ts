/**
 * The widget's first-screen CSS, scoped by its shadow root: the design tokens, the panel's frame
 * (header, tab strip, two panes), the Servers and Tools views and the dialogs (the extension and MCP
 * Apps open dialogs outside the lazy views). What only lazy views use is in
 * components/components.css.ts, loaded with them.
 *
 * Tokens are custom properties on :host, so a host page overrides them with a rule on the element
 * (`toolgate-panel { --tg-accent: #7a1fa2 }`: docs/embedding.md), in both schemes. The colours come
 * in a light and a dark set. Which applies: the person's choice (the panel's toggle sets
 * data-tg-theme on the host element: theme-toggle.tsx), else the element's `theme` attribute, else
 * the system's prefers-color-scheme. Not light-dark(): the extension supports Chrome 116, and
 * pages embed the widget in browsers older than that function.
 */

const layout = [
  // Spacing scale.
  '--tg-s1:4px;--tg-s2:8px;--tg-s3:12px;--tg-s4:16px;--tg-s5:24px',
  // Type scale and families.
  '--tg-text-xs:12px;--tg-text-s:13px;--tg-text-m:14px;--tg-text-l:16px',
  '--tg-font:system-ui,sans-serif;--tg-mono:ui-monospace,monospace',
  // Radii and the focus ring.
  '--tg-radius:6px;--tg-radius-l:10px;--tg-focus:2px solid var(--tg-accent)',
].join(';');

// Colours; ok, warn and danger are the status colours. Text passes 4.5:1 on bg and surface.
const light =
  'color-scheme:light;--tg-fg:#1b1f24;--tg-bg:#fff;--tg-surface:#f6f8fa;--tg-muted:#57606a;--tg-border:#d0d7de;--tg-accent:#0b57d0;--tg-ok:#1a7f37;--tg-warn:#8a5a00;--tg-danger:#b3261e;--tg-warn-bg:#fff4e5';
const dark =
  'color-scheme:dark;--tg-fg:#e6edf3;--tg-bg:#0d1117;--tg-surface:#161b22;--tg-muted:#9aa4ae;--tg-border:#3d444d;--tg-accent:#7cacf8;--tg-ok:#56d364;--tg-warn:#e3b341;--tg-danger:#ff8a80;--tg-warn-bg:#3d2e00';

export const panelStyles = `
:host{${layout};display:block;color:var(--tg-fg);background:var(--tg-bg)}
@media (prefers-color-scheme:dark){:host(:not([theme=light]):not([data-tg-theme])){${dark}}}
:host,:host([data-tg-theme=light]){${light}}:host([theme=dark]:not([data-tg-theme])),:host([data-tg-theme=dark]){${dark}}
*{box-sizing:border-box}
.tg-root{padding:var(--tg-s3);container-type:inline-size;accent-color:var(--tg-accent);color:var(--tg-fg);background:var(--tg-bg);font:var(--tg-text-m)/1.45 var(--tg-font)}
.tg-header{display:flex;gap:var(--tg-s3);align-items:center;margin-bottom:var(--tg-s2)}.tg-header>:last-child{margin-left:auto}.tg-header [aria-pressed=true]{border-color:var(--tg-accent)}
.tg-tablist{display:flex;gap:var(--tg-s1);overflow-x:auto;scrollbar-width:thin;border-bottom:1px solid var(--tg-border);margin-bottom:var(--tg-s3)}
.tg-tablist [role=tab]{flex:none;white-space:nowrap;border:0;border-bottom:2px solid transparent;border-radius:0;background:none;padding:6px 10px}
.tg-tablist [aria-selected=true]{border-bottom-color:var(--tg-accent);font-weight:600}
h2{font-size:var(--tg-text-l);margin:0 0 var(--tg-s2)}h3{font-size:15px;margin:var(--tg-s2) 0 var(--tg-s1)}h4{font-size:var(--tg-text-m);margin:var(--tg-s2) 0 var(--tg-s1)}
h2,h3,h4,code{overflow-wrap:anywhere}
button{font:inherit;color:var(--tg-fg);background:var(--tg-surface);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) 10px;cursor:pointer}
button:hover:not(:disabled):not([aria-disabled=true]){border-color:var(--tg-accent)}
button:disabled,button[aria-disabled=true]{opacity:.55;cursor:not-allowed}
:focus-visible{outline:var(--tg-focus);outline-offset:2px}
input,select,textarea{font:inherit;color:var(--tg-fg);background:var(--tg-bg);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) 6px;max-width:100%}
input[type=checkbox],input[type=radio]{flex:none;margin:3px 0 0}
label{display:block;margin:6px 0 2px}label:has(>input[type=checkbox],>input[type=radio]){display:flex;flex-wrap:nowrap;gap:6px;align-items:flex-start}
.tg-row{display:flex;gap:var(--tg-s2);align-items:center;flex-wrap:wrap;margin:6px 0}.tg-row label{margin:0}
.tg-wrap{overflow-wrap:anywhere;min-width:0}
.tg-empty{color:var(--tg-muted);border:1px dashed var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s3);margin:var(--tg-s2) 0}
.tg-not-signed-in,.tg-connect-problems{border:1px solid var(--tg-border);border-left:4px solid var(--tg-accent);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:0 0 var(--tg-s3)}
.tg-connect-problems{border-color:var(--tg-danger)}.tg-connect-problems h3{color:var(--tg-danger)}
:is(.tg-not-signed-in,.tg-connect-problems) h3{margin-top:0}:is(.tg-not-signed-in,.tg-connect-problems) ul,.tg-server-list,.tg-tool-list{list-style:none;padding:0;margin:0}
.tg-connect-problem+.tg-connect-problem{border-top:1px solid var(--tg-border);margin-top:var(--tg-s2);padding-top:var(--tg-s2)}
.tg-connect-problem p{margin:2px 0}
.tg-ping{color:var(--tg-muted);font-variant-numeric:tabular-nums}
.tg-muted,.tg-help{color:var(--tg-muted);font-size:var(--tg-text-s);margin:2px 0}
.tg-error{color:var(--tg-danger)}.tg-ok{color:var(--tg-ok)}
.tg-warning{background:var(--tg-warn-bg);padding:6px 8px;border-radius:var(--tg-radius)}
.tg-badge{display:inline-block;border:1px solid var(--tg-border);border-radius:999px;padding:0 8px;font-size:var(--tg-text-xs)}
.tg-badge-danger,.tg-mark-destructive{border-color:var(--tg-danger);color:var(--tg-danger)}.tg-mark-read-only{border-color:var(--tg-ok);color:var(--tg-ok)}.tg-mark-open-world{border-color:var(--tg-warn);color:var(--tg-warn)}
.tg-server{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:var(--tg-s2) 0}
#tg-server-url,#tg-server-headers,#tg-tool-search{width:100%}
.tg-server-head{display:flex;gap:var(--tg-s2);align-items:center;flex-wrap:wrap}
@container (min-width:720px){.tg-panes{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:var(--tg-s5);align-items:start}.tg-tool-detail{margin-top:0}}
.tg-virtual{overflow-y:auto;border:1px solid var(--tg-border);border-radius:var(--tg-radius)}
.tg-tool-row{position:absolute;left:0;right:0}
.tg-tool-group{display:flex;align-items:flex-end;gap:var(--tg-s2);padding:0 var(--tg-s2) var(--tg-s1);font-weight:600;background:var(--tg-surface);border-bottom:1px solid var(--tg-border)}
.tg-tool-group>span,.tg-tool-line>*,.tg-tool-description{unicode-bidi:isolate;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.tg-tool-button{width:100%;height:100%;text-align:left;border:0;border-bottom:1px solid var(--tg-border);border-radius:0;background:none;display:flex;align-items:center;gap:var(--tg-s2);overflow:hidden}
.tg-tool-button:focus-visible{outline-offset:-2px}.tg-tool-button[aria-pressed=true]{background:var(--tg-surface);box-shadow:inset 3px 0 var(--tg-accent)}
.tg-tool-text{display:flex;flex-direction:column;min-width:0;flex:1}.tg-tool-line{display:flex;gap:6px;align-items:center}.tg-tool-line>*{flex:none}.tg-tool-line>.tg-tool-title{flex:0 1 auto;font-weight:600}
.tg-tool-line code,.tg-tool-description{font-size:var(--tg-text-s);color:var(--tg-muted)}
.tg-icon{width:20px;height:20px;flex:none}
.tg-pick{color:var(--tg-muted);border:1px dashed var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s4)}
.tg-tool-detail{border-top:1px solid var(--tg-border);margin-top:var(--tg-s3);padding-top:var(--tg-s2)}
@container (min-width:720px){.tg-tool-detail{border:0;padding:0}}
.tg-backdrop{position:fixed;inset:0;background:rgb(0 0 0 / .45);display:flex;align-items:center;justify-content:center;z-index:2147483000}
.tg-dialog{background:var(--tg-bg);color:var(--tg-fg);border-radius:var(--tg-radius-l);padding:var(--tg-s4);width:min(640px,94vw);max-height:90vh;overflow:auto;border:1px solid var(--tg-border)}
.tg-dialog.tg-risky{border:3px solid var(--tg-danger)}
.tg-actions{display:flex;gap:var(--tg-s2);flex-wrap:wrap;margin-top:var(--tg-s3)}
.tg-allow{background:var(--tg-accent);color:var(--tg-bg);border-color:var(--tg-accent)}
.tg-deny{border-color:var(--tg-danger);color:var(--tg-danger)}
.tg-mono,pre{font-family:var(--tg-mono);font-size:var(--tg-text-s)}
.tg-fieldset{border:1px solid var(--tg-border);border-radius:var(--tg-radius);margin:6px 0}
.tg-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
progress{width:100%}
.tg-spinner{display:inline-block;width:10px;height:10px;border-radius:50%;border:2px solid var(--tg-accent);border-right-color:transparent;animation:tg-spin 1s linear infinite}
@keyframes tg-spin{to{transform:rotate(360deg)}}
.tg-placeholder{display:grid;gap:var(--tg-s2);padding:var(--tg-s2) 0}.tg-placeholder>i{height:14px;border-radius:var(--tg-radius);background:var(--tg-border);animation:tg-pulse 1.2s ease-in-out infinite alternate}.tg-placeholder>i:nth-child(3){width:70%}.tg-placeholder>i:nth-child(4){width:45%}
@keyframes tg-pulse{to{opacity:.4}}
@media (prefers-reduced-motion:reduce){.tg-spinner,.tg-placeholder>i{animation:none}}
.tg-overlay{padding:0;background:none}
.tg-indicator{margin:0}`;
