/**
 * Styles for the shared components (JSON tree, result view, schema form, elicitation form). Colours,
 * radius and fonts come from the panel's custom properties, so a host theme reaches these too;
 * the fallbacks keep the components legible if they are ever rendered outside the panel.
 */

export const componentStyles = `
.tg-running,.tg-finished,.tg-badges{list-style:none;padding:0}
.tg-running-call,.tg-finished-call{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2) var(--tg-s3);margin:var(--tg-s2) 0}
.tg-badges{display:flex;gap:6px;flex-wrap:wrap}
.tg-claimed{color:var(--tg-muted)}
.tg-flags{color:var(--tg-danger);padding-left:18px}
.tg-description{white-space:pre-wrap}
.tg-tabs{display:flex;gap:4px;margin:8px 0}.tg-tabs [aria-pressed=true]{font-weight:600;border-color:var(--tg-accent)}
.tg-diff .tg-before{color:var(--tg-danger);white-space:pre-wrap}.tg-diff .tg-after{color:var(--tg-ok);white-space:pre-wrap}
.tg-log-table{width:100%;border-collapse:collapse;font-size:13px}.tg-log-table th,.tg-log-table td{text-align:left;border-bottom:1px solid var(--tg-border);padding:var(--tg-s1)}
@container (max-width:560px){:is(.tg-log-table,.tg-remembered) thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}:is(.tg-log-table,.tg-remembered),:is(.tg-log-table,.tg-remembered) :is(tbody,tr,td){display:block}:is(.tg-log-table,.tg-remembered) tr{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s1) var(--tg-s2);margin:var(--tg-s2) 0}:is(.tg-log-table,.tg-remembered) td{display:grid;grid-template-columns:5.5em minmax(0,1fr);gap:var(--tg-s2);border:0;padding:2px 0}:is(.tg-log-table,.tg-remembered) td::before{content:attr(data-label);color:var(--tg-muted)}}
.tg-filters{display:flex;flex-wrap:wrap;gap:var(--tg-s2)}.tg-filters label{margin:0}.tg-filters input{min-width:0}
.tg-json{font-family:var(--tg-mono,ui-monospace,monospace);font-size:13px;color:var(--tg-fg)}
.tg-json summary{cursor:pointer}
.tg-json-children{list-style:none;margin:0;padding-left:16px;border-left:1px dotted var(--tg-border)}
.tg-json-key{color:var(--tg-accent)}
.tg-json-count,.tg-json-null,.tg-json-undefined{color:var(--tg-muted)}
.tg-json-string{white-space:pre-wrap;word-break:break-word}
.tg-json-number,.tg-json-boolean{font-weight:600}
.tg-link-button{border:0;background:none;padding:0;color:var(--tg-accent);text-decoration:underline;cursor:pointer;font:inherit}

.tg-result{display:flex;flex-direction:column;gap:6px}
.tg-tool-error{border-left:4px solid var(--tg-danger);padding-left:8px}
.tg-tool-error>h4{color:var(--tg-danger);margin:4px 0}
.tg-text{font-family:var(--tg-mono,ui-monospace,monospace);font-size:13px;white-space:pre-wrap;word-break:break-word;margin:4px 0;padding:6px 8px;border:1px solid var(--tg-border);border-radius:var(--tg-radius)}
.tg-image{display:block;max-width:100%;height:auto;border-radius:var(--tg-radius)}
.tg-audio{display:block;max-width:100%}
.tg-notice{color:var(--tg-muted);font-style:italic;margin:4px 0}
.tg-for-other>summary{color:var(--tg-muted);cursor:pointer}
.tg-resource-link{margin:4px 0;word-break:break-word}
.tg-resource-link a{color:var(--tg-accent)}
.tg-inert-uri{font-family:var(--tg-mono,ui-monospace,monospace);word-break:break-all;user-select:all}
.tg-embedded{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:6px 8px}
.tg-structured{border-top:1px solid var(--tg-border);padding-top:6px}
.tg-issues{margin:4px 0;padding-left:18px}
.tg-muted{color:var(--tg-muted)}
.tg-error{color:var(--tg-danger)}

.tg-form{display:flex;flex-direction:column;gap:4px}
.tg-field{display:flex;flex-direction:column;gap:2px;margin:4px 0}
.tg-field>label{font-weight:500}
.tg-field-check{flex-direction:row;flex-wrap:wrap;align-items:center;gap:6px}
.tg-field-check>.tg-help{flex-basis:100%}.tg-field-check>label{flex:1 1 0;min-width:0;margin:0}
.tg-field input:not([type=checkbox]),.tg-field select,.tg-field textarea{font:inherit;color:var(--tg-fg);background:var(--tg-bg);border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:4px 6px;max-width:100%}
.tg-field textarea{width:100%;resize:vertical}
.tg-field [aria-invalid=true]{border-color:var(--tg-danger)}
.tg-fieldset{border:1px solid var(--tg-border);border-radius:var(--tg-radius);margin:6px 0;padding:6px 10px}
.tg-fieldset>legend{font-weight:600;padding:0 4px}
.tg-help{color:var(--tg-muted);font-size:13px;margin:2px 0}
.tg-required{color:var(--tg-danger);font-weight:400}
.tg-array{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.tg-array-item{display:flex;align-items:flex-start;gap:8px;border-left:2px solid var(--tg-border);padding-left:8px}
.tg-array-item>:first-child{flex:1;min-width:0}
.tg-remove{color:var(--tg-danger)}
.tg-add{align-self:flex-start;margin-top:4px}
.tg-mono{font-family:var(--tg-mono,ui-monospace,monospace);font-size:13px}

.tg-elicit{display:flex;flex-direction:column;gap:6px;font-family:var(--tg-font,inherit)}
.tg-elicit-message{white-space:pre-wrap;word-break:break-word}
.tg-host{font-family:var(--tg-mono,ui-monospace,monospace)}
.tg-actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}

.tg-escaped{unicode-bidi:isolate;padding:4px 6px;border:1px dashed var(--tg-border);border-radius:var(--tg-radius)}
.tg-hidden-char{background:var(--tg-warn-bg,#fff4e5);color:var(--tg-danger);outline:1px solid var(--tg-danger);border-radius:2px;padding:0 1px}
.tg-undeclared.tg-flagged{border-color:var(--tg-danger);border-style:dashed}
.tg-undeclared-argument{display:flex;align-items:flex-start;gap:8px}
.tg-undeclared-argument>:first-child{flex:1;min-width:0}
.tg-scroll{max-height:16em;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:2px 0}
.tg-diff-lines{padding-left:18px}
.tg-full-definition>summary{cursor:pointer}
.tg-countdown{margin:4px 0;font-variant-numeric:tabular-nums}
.tg-acknowledge{display:flex;align-items:flex-start;gap:8px;border-left:4px solid var(--tg-danger);padding-left:8px;margin:8px 0}
.tg-acknowledge>input{margin-top:4px;flex:none}.tg-acknowledge>label{margin:0;flex:1}
.tg-deny.tg-primary{background:var(--tg-danger);color:var(--tg-bg);border-color:var(--tg-danger);font-weight:600}

.tg-wrap{overflow-wrap:anywhere;min-width:0}
.tg-facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px var(--tg-s3,12px);margin:4px 0;font-size:13px}
.tg-facts dt{color:var(--tg-muted)}.tg-facts dd{margin:0}
.tg-arguments>summary,.tg-progress-history>summary{cursor:pointer;color:var(--tg-muted)}
.tg-progress-history ol{margin:4px 0;padding-left:22px;max-height:12em;overflow:auto;font-size:13px}
.tg-badge-ok{border-color:var(--tg-ok);color:var(--tg-ok)}
.tg-call-outcome{margin-top:var(--tg-s2,8px);display:flex;flex-direction:column;gap:var(--tg-s1,4px)}
.tg-resource-read{margin:4px 0}
.tg-resource-content{border-left:2px solid var(--tg-border);padding-left:var(--tg-s2,8px);margin:4px 0}
.tg-download{margin:4px 0}
.tg-inspect-part{border-top:1px solid var(--tg-border);margin-top:var(--tg-s3,12px);padding-top:var(--tg-s2,8px)}
.tg-log-lines,.tg-traffic{list-style:none;margin:0;padding:0;font-size:13px;max-height:24em;overflow:auto;border:1px solid var(--tg-border);border-radius:var(--tg-radius)}
.tg-log-line,.tg-traffic-line{padding:2px var(--tg-s2,8px);border-bottom:1px solid var(--tg-border)}
.tg-level-high .tg-badge{border-color:var(--tg-danger);color:var(--tg-danger)}
.tg-traffic summary{cursor:pointer;font-family:var(--tg-mono,ui-monospace,monospace)}
.tg-traffic .tg-received summary>span:first-child{color:var(--tg-ok)}.tg-traffic .tg-sent summary>span:first-child{color:var(--tg-accent)}
.tg-mark{font-weight:600}.tg-mark-ok{color:var(--tg-ok)}.tg-mark-error{color:var(--tg-danger)}.tg-mark-neutral{color:var(--tg-muted)}
.tg-call-result{display:flex;flex-direction:column;gap:var(--tg-s1,4px)}
.tg-result-bar{display:flex;flex-wrap:wrap;align-items:center;gap:var(--tg-s1,4px) var(--tg-s2,8px)}
.tg-segmented{display:inline-flex;border:0;margin:0;padding:0;min-width:0}
.tg-segmented button{border-radius:0}.tg-segmented button:first-of-type{border-radius:var(--tg-radius,6px) 0 0 var(--tg-radius,6px)}.tg-segmented button:last-of-type{border-radius:0 var(--tg-radius,6px) var(--tg-radius,6px) 0;border-left:0}
.tg-segmented button[aria-pressed=true]{background:var(--tg-accent);color:var(--tg-bg);border-color:var(--tg-accent)}
.tg-copy{display:inline-flex;flex-wrap:wrap;align-items:center;gap:var(--tg-s1,4px)}
.tg-copy-note:empty{display:none}.tg-copy-note{font-size:12px;color:var(--tg-muted)}
.tg-copy-fallback{flex-basis:100%;font-family:var(--tg-mono,ui-monospace,monospace);font-size:12px}
.tg-json-leaf{display:flex;align-items:flex-start;gap:var(--tg-s1,4px)}.tg-json-leaf>span:first-child{flex:1;min-width:0}
.tg-json-branch{position:relative}.tg-json-branch>.tg-copy{position:absolute;top:0;right:0}.tg-json-branch>details>summary{padding-right:4em}
.tg-json .tg-copy-button{font-size:11px;padding:0 4px;color:var(--tg-muted)}.tg-json .tg-copy-button:hover,.tg-json .tg-copy-button:focus-visible{color:var(--tg-fg)}
.tg-json-branch>.tg-copy .tg-copy-note,.tg-json-branch>.tg-copy .tg-copy-fallback{background:var(--tg-bg,#fff)}
.tg-edited{border-left:4px solid var(--tg-accent);padding-left:var(--tg-s2,8px)}.tg-edited h4{margin:2px 0}.tg-edited .tg-diff{margin:2px 0;padding-left:18px}
.tg-offer-group h3{font-size:var(--tg-text-s,13px);margin:8px 0 2px;color:var(--tg-muted)}
.tg-offer-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:2px}
.tg-offer-row{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:baseline;width:100%;text-align:left;font:inherit;color:var(--tg-fg);background:none;border:1px solid transparent;border-radius:var(--tg-radius);padding:4px 6px;cursor:pointer}
.tg-offer-row:hover{border-color:var(--tg-border)}.tg-offer-row[aria-current=true]{border-color:var(--tg-accent)}
.tg-offer-row code{overflow-wrap:anywhere}
.tg-suggestions{list-style:none;margin:2px 0;padding:0;display:flex;flex-wrap:wrap;gap:4px 10px}
.tg-prompt-message{border-left:2px solid var(--tg-border);padding-left:8px;margin:6px 0}.tg-prompt-message h4{margin:2px 0}
`;
