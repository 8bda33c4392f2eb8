export declare const CHROMIUM_ARGS: string[];
export type ChromiumSource = 'CHROMIUM_PATH' | 'chromium' | 'playwright' | 'chrome';
export interface FoundChromium {
  path: string;
  source: ChromiumSource;
}
export interface ChromiumSearch {
  env?: Record<string, string | undefined>;
  platform?: string;
  home?: string;
  exists?: (path: string) => boolean;
  playwrightPath?: string | undefined;
}
export declare function usualLocations(
  platform: string,
  env: Record<string, string | undefined>,
  home: string,
): { chromium: string[]; chrome: string[] };
export declare function missingChromiumMessage(platform: string, looked: string[]): string;
export declare function findChromium(search?: ChromiumSearch): FoundChromium;
export declare function chromiumForThisMachine(playwrightChromium?: {
  executablePath(): string;
}): FoundChromium;
