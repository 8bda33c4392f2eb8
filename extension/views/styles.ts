/**
 * The extension's own parts of the side panel (notices, the fix in a failure's card), in the
 * panel's shadow root beside its styles and with its tokens, so a theme reaches them too.
 */
export const extensionStyles = `
.tg-notice{display:flex;gap:var(--tg-s2,8px);align-items:flex-start;background:var(--tg-warn-bg,#fff4e5);border-radius:var(--tg-radius,6px);padding:var(--tg-s2,8px) var(--tg-s3,12px);margin:var(--tg-s2,8px) var(--tg-s3,12px) 0}
.tg-notice-body{flex:1;min-width:0}.tg-notice-body p{margin:0 0 var(--tg-s1,4px)}
.tg-notice-close{flex:none;border:0;background:none;font-size:18px;line-height:1;padding:2px 6px}
.tg-host-fix{border-left:3px solid var(--tg-accent,#0b57d0);padding:2px 0 2px var(--tg-s2,8px);margin:var(--tg-s1,4px) 0 var(--tg-s2,8px)}
.tg-host-fix .tg-allow{margin:var(--tg-s1,4px) 0}
`;
