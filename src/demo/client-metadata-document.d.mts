import type { Plugin } from 'vite';

export const CLIENT_METADATA_PATH: string;
export const CALLBACK_PATH: string;
/** The Client ID Metadata Document for a site whose base URL (ending in '/') is `siteUrl`. */
export function clientMetadataDocument(siteUrl: string): Record<string, unknown>;
/** Serves the document in dev; writes it in a build given TOOLGATE_SITE_URL. */
export function clientMetadataDocumentPlugin(): Plugin;
