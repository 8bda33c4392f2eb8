/**
 * The approval dialog's heading: the tool by its real name (what rules, grants and the Sites view
 * go by), its title beside it as the server's own words, and a plain warning when that title is,
 * or looks like, the name of another tool (ui/components/title-lookalike.ts).
 */

import type { Tool } from '../../protocol/index.js';
import { escapeHidden } from '../components/hidden-characters.js';
import { type NamedTool, titleLookalike } from '../components/title-lookalike.js';
import { ToolName, visibleToolName } from '../components/tool-name.js';

export function ToolHeading({
  titleId,
  tool,
  serverLabel,
  tools,
}: {
  titleId: string;
  tool: Pick<Tool, 'name' | 'title'>;
  serverLabel: string;
  tools: readonly NamedTool[];
}) {
  const title = tool.title?.trim() ? tool.title : undefined;
  const lookalike = titleLookalike(title, tool.name, tools);
  return (
    <>
      <h2 id={titleId}>
        Allow <ToolName name={tool.name} /> on {serverLabel}?
      </h2>
      {title !== undefined && title !== tool.name && (
        <p class="tg-muted tg-wrap tg-tool-titled">Its server titles it “{escapeHidden(title)}”.</p>
      )}
      {lookalike && (
        <p class="tg-warning tg-title-lookalike">
          The title “{escapeHidden(title!)}” {lookalike.exact ? 'is' : 'looks like'} the name of another tool,{' '}
          <code>{visibleToolName(lookalike.tool.name)}</code> on {lookalike.tool.serverLabel}. This call runs{' '}
          <code>{visibleToolName(tool.name)}</code>; rules and remembered approvals go by that name.
        </p>
      )}
    </>
  );
}
