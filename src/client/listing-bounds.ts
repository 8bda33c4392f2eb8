/**
 * Bounds on one listing, the same for tools, resources, templates and prompts, wherever the pages
 * are followed (the tool catalog, the offerings client, the widget's page-by-page tabs). Each page
 * is a round trip, so the page bound keeps an endless pagination from holding a list back; 200 still
 * lets a 10,000-item server page by 50. Beyond the item bound a list costs memory and attention that
 * no person or model can use.
 */
export const DEFAULT_MAX_PAGES = 200;
export const DEFAULT_MAX_ITEMS = 50_000;
