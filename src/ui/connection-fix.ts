/**
 * A host's own fix for a server that could not connect. The widget's advice is what a web page can
 * do (ask whoever runs the server to change it); a host may be able to do more itself (the
 * extension can reach a server that refuses CORS once the person allows it). A host that passes one
 * to the Panel (`connectionFix`) gets its fix shown first in the failure's one card, and the
 * widget's advice after it. Read signals in it: the card follows them.
 */

import type { ComponentChildren } from 'preact';
import type { ServerState } from '../session/index.js';

/** The host's fix for this failed server, or undefined when it has none. */
export type ConnectionFix = (server: ServerState) => ComponentChildren | undefined;

/**
 * The host's way past CORS at an origin, offered in the doctor's report when CORS there shut this
 * page out (the extension: "Allow Toolgate to reach <origin>"). Passed down beside the
 * ConnectionFix, to every report (the add form's, the cards', the rows'). Read signals in it.
 */
export type DoctorAccess = (origin: string) => ComponentChildren | undefined;
