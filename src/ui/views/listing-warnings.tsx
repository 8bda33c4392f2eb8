/**
 * What is wrong with how the server lists the tool an approval is for (its name breaks the MCP
 * rules, or it lists another tool under the same name): said in the dialog, where the person
 * decides, not only in the Tools view.
 */

export function ListingWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
  if (!warnings || warnings.length === 0) return null;
  return (
    <ul class="tg-warning tg-listing-warnings" aria-label="Problems with how the server lists this tool">
      {warnings.map((warning) => (
        <li key={warning}>⚠ {warning.charAt(0).toUpperCase() + warning.slice(1)}.</li>
      ))}
    </ul>
  );
}
