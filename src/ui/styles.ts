/**
 * The widget's CSS, scoped by its shadow root. Themable through custom properties (set them on
 * <toolgate-panel> from the host page); light and dark follow prefers-color-scheme unless the
 * element's `theme` attribute says otherwise.
 */

const light = `--tg-fg:#1b1f24;--tg-bg:#ffffff;--tg-muted:#57606a;--tg-accent:#0b57d0;--tg-danger:#b3261e;--tg-ok:#1a7f37;--tg-warn-bg:#fff4e5;--tg-border:#d0d7de;--tg-surface:#f6f8fa;`;
const dark = `--tg-fg:#e6edf3;--tg-bg:#0d1117;--tg-muted:#9aa4ae;--tg-accent:#7cacf8;--tg-danger:#ff8a80;--tg-ok:#56d364;--tg-warn-bg:#3d2e00;--tg-border:#3d444d;--tg-surface:#161b22;`;

export const panelStyles = `
:host{${light}color-scheme:light;--tg-radius:6px;--tg-s1:4px;--tg-s2:8px;--tg-s3:12px;--tg-s4:16px;--tg-font:system-ui,sans-serif;--tg-mono:ui-monospace,monospace;display:block;color:var(--tg-fg);background:var(--tg-bg);font:14px/1.45 var(--tg-font)}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){${dark}color-scheme:dark}}
:host([theme=dark]){${dark}color-scheme:dark}
*{box-sizing:border-box}
.tg-root{padding:var(--tg-s3);container-type:inline-size;accent-color:var(--tg-accent)}
.tg-header{display:flex;gap:var(--tg-s3);align-items:center;margin-bottom:var(--tg-s2)}
.tg-tablist{display:flex;flex-wrap:wrap;gap:var(--tg-s1);border-bottom:1px solid var(--tg-border);margin-bottom:var(--tg-s3)}
.tg-tablist [role=tab]{border:0;border-bottom:2px solid transparent;border-radius:0;background:none;color:var(--tg-fg);padding:6px 10px;cursor:pointer;font:inherit}
.tg-tablist [aria-selected=true]{border-bottom-color:var(--tg-accent);font-weight:600}
h2{font-size:16px;margin:0 0 var(--tg-s2)}h3{font-size:15px;margin:var(--tg-s2) 0 var(--tg-s1)}h4{font-size:14px;margin:var(--tg-s2) 0 var(--tg-s1)}
h2,h3,h4,code{overflow-wrap:anywhere}
button{font:inherit;color:var(--tg-fg);background:var(--tg-surface);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) 10px;cursor:pointer}
button:hover:not(:disabled):not([aria-disabled=true]){border-color:var(--tg-accent)}
button:disabled,button[aria-disabled=true]{opacity:.55;cursor:not-allowed}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible,a:focus-visible,[tabindex]:focus-visible{outline:2px solid var(--tg-accent);outline-offset:2px}
input,select,textarea{font:inherit;color:var(--tg-fg);background:var(--tg-bg);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) 6px;max-width:100%}
input[type=checkbox],input[type=radio]{accent-color:var(--tg-accent)}
label{display:block;margin:6px 0 2px}
.tg-row{display:flex;gap:var(--tg-s2);align-items:center;flex-wrap:wrap;margin:6px 0}.tg-row label{display:inline;margin:0}
.tg-wrap{overflow-wrap:anywhere;min-width:0}
.tg-empty{color:var(--tg-muted);border:1px dashed var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s3);margin:var(--tg-s2) 0}
.tg-not-signed-in{border:1px solid var(--tg-border);border-left:4px solid var(--tg-accent);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:0 0 var(--tg-s3)}
.tg-not-signed-in h3{margin-top:0}.tg-not-signed-in ul{list-style:none;padding:0;margin:0}
.tg-connect-problems{border:1px solid var(--tg-danger);border-left-width:4px;border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:0 0 var(--tg-s3)}
.tg-connect-problems h3{color:var(--tg-danger);margin-top:0}.tg-connect-problems ul{list-style:none;padding:0;margin:0}
.tg-connect-problem+.tg-connect-problem{border-top:1px solid var(--tg-border);margin-top:var(--tg-s2);padding-top:var(--tg-s2)}
.tg-connect-problem p{margin:2px 0}
.tg-ping{color:var(--tg-muted);font-variant-numeric:tabular-nums}
.tg-muted,.tg-help{color:var(--tg-muted);font-size:13px;margin:2px 0}
.tg-error{color:var(--tg-danger)}.tg-ok{color:var(--tg-ok)}
.tg-warning{background:var(--tg-warn-bg);padding:6px 8px;border-radius:var(--tg-radius)}
.tg-badge{display:inline-block;border:1px solid var(--tg-border);border-radius:999px;padding:0 8px;font-size:12px}
.tg-badges{list-style:none;padding:0;display:flex;gap:6px;flex-wrap:wrap}
.tg-badge-danger{border-color:var(--tg-danger);color:var(--tg-danger)}
.tg-claimed{color:var(--tg-muted)}
.tg-flags{color:var(--tg-danger);padding-left:18px}
.tg-server-list,.tg-running,.tg-finished{list-style:none;padding:0}
.tg-server,.tg-running-call,.tg-finished-call{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:var(--tg-s2) 0}
#tg-server-url,#tg-server-headers,#tg-tool-search{width:100%}
.tg-server-head{display:flex;gap:var(--tg-s2);align-items:center;flex-wrap:wrap}
.tg-virtual{overflow-y:auto;border:1px solid var(--tg-border);border-radius:var(--tg-radius)}
.tg-tool-list{list-style:none;margin:0;padding:0}
.tg-tool-row{position:absolute;left:0;right:0}
.tg-tool-button{width:100%;height:100%;text-align:left;border:0;border-bottom:1px solid var(--tg-border);border-radius:0;background:none;display:flex;align-items:center;gap:6px;overflow:hidden;white-space:nowrap}
.tg-tool-button:focus-visible{outline-offset:-2px}
.tg-tool-title,.tg-tool-server{overflow:hidden;text-overflow:ellipsis;min-width:0}.tg-tool-title{flex:0 0 auto;max-width:65%}.tg-tool-server{flex:0 1 auto}
.tg-tool-button[aria-pressed=true]{background:var(--tg-surface);font-weight:600}
.tg-icon{width:20px;height:20px;flex:none}
.tg-tool-detail{border-top:1px solid var(--tg-border);margin-top:12px;padding-top:8px}
.tg-description{white-space:pre-wrap}
.tg-backdrop{position:fixed;inset:0;background:rgb(0 0 0 / .45);display:flex;align-items:center;justify-content:center;z-index:2147483000}
.tg-dialog{background:var(--tg-bg);color:var(--tg-fg);border-radius:10px;padding:var(--tg-s4);width:min(640px,94vw);max-height:90vh;overflow:auto;border:1px solid var(--tg-border)}
.tg-dialog.tg-risky{border:3px solid var(--tg-danger)}
.tg-actions{display:flex;gap:var(--tg-s2);flex-wrap:wrap;margin-top:var(--tg-s3)}
.tg-allow{background:var(--tg-accent);color:var(--tg-bg);border-color:var(--tg-accent)}
.tg-deny{border-color:var(--tg-danger);color:var(--tg-danger)}
.tg-tabs{display:flex;gap:4px;margin:8px 0}.tg-tabs [aria-pressed=true]{font-weight:600;border-color:var(--tg-accent)}
.tg-mono,.tg-text,pre{font-family:var(--tg-mono);font-size:13px}
.tg-text{white-space:pre-wrap;word-break:break-word;background:var(--tg-surface);padding:6px;border-radius:var(--tg-radius);margin:4px 0}
.tg-tool-error{border-left:4px solid var(--tg-danger);padding-left:8px}
.tg-image{max-width:100%;height:auto}
.tg-json{font-family:var(--tg-mono);font-size:13px}.tg-json-children{list-style:none;padding-left:16px;margin:0}
.tg-json-key{color:var(--tg-accent)}
.tg-diff .tg-before{color:var(--tg-danger);white-space:pre-wrap}.tg-diff .tg-after{color:var(--tg-ok);white-space:pre-wrap}
.tg-fieldset{border:1px solid var(--tg-border);border-radius:var(--tg-radius);margin:6px 0}
.tg-log-table{width:100%;border-collapse:collapse;font-size:13px}.tg-log-table th,.tg-log-table td{text-align:left;border-bottom:1px solid var(--tg-border);padding:var(--tg-s1)}
@container (max-width:560px){:is(.tg-log-table,.tg-remembered) thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}:is(.tg-log-table,.tg-remembered),:is(.tg-log-table,.tg-remembered) :is(tbody,tr,td){display:block}:is(.tg-log-table,.tg-remembered) tr{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) var(--tg-s2);margin:var(--tg-s2) 0}:is(.tg-log-table,.tg-remembered) td{display:grid;grid-template-columns:5.5em minmax(0,1fr);gap:var(--tg-s2);border:0;padding:2px 0}:is(.tg-log-table,.tg-remembered) td::before{content:attr(data-label);color:var(--tg-muted)}}
.tg-filters input{min-width:0}
.tg-filters{display:flex;flex-wrap:wrap;gap:var(--tg-s2)}.tg-filters label{margin:0}
.tg-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
progress{width:100%}
.tg-spinner{display:inline-block;width:10px;height:10px;border-radius:50%;border:2px solid var(--tg-accent);border-right-color:transparent;animation:tg-spin 1s linear infinite}
@keyframes tg-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.tg-spinner{animation:none}}
.tg-overlay{padding:0}
.tg-indicator{margin:0}`;
