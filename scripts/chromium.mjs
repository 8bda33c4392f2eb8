// Which Chromium the browser tests, the conformance client and the benches drive, on any system.
//
// Order: CHROMIUM_PATH; a Chromium build at the platform's usual places; Playwright's own browser
// (`npx playwright install chromium`); Google Chrome at the usual places. Chromium builds come
// before branded Chrome because Chrome (137 and later) ignores --load-extension, which the
// extension tests need; Chrome still runs every other test.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** Flags every launch uses: quiet, deterministic, and able to run as root in CI containers. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The usual install locations on one platform, Chromium builds first, then Google Chrome. */
export function usualLocations(platform, env, home) {
  if (platform === 'darwin') {
    const apps = ['/Applications', posix.join(home, 'Applications')];
    return {
      chromium: apps.map((dir) => posix.join(dir, 'Chromium.app/Contents/MacOS/Chromium')),
      chrome: apps.map((dir) => posix.join(dir, 'Google Chrome.app/Contents/MacOS/Google Chrome')),
    };
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(Boolean);
    return {
      chromium: roots.map((dir) => win32.join(dir, 'Chromium', 'Application', 'chrome.exe')),
      chrome: roots.map((dir) => win32.join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe')),
    };
  }
  return {
    chromium: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'],
    chrome: ['/usr/bin/google-chrome-stable', '/usr/bin/google-chrome', '/opt/google/chrome/chrome'],
  };
}

/** What to do when nothing is found: the three ways, in the order they are looked for. */
export function missingChromiumMessage(platform, looked) {
  const install =
    platform === 'linux'
      ? 'install Chromium (Debian/Ubuntu: sudo apt-get install -y chromium)'
      : platform === 'darwin'
        ? 'install Chromium or Google Chrome in /Applications'
        : 'install Google Chrome or Chromium';
  return [
    'No Chromium found for the browser tests. Do one of these:',
    '  1. set CHROMIUM_PATH to a Chromium or Chrome executable,',
    `  2. ${install},`,
    "  3. or download Playwright's own: npx playwright install chromium",
    `Looked at: ${looked.join(', ')}`,
  ].join('\n');
}

/**
 * Finds the browser to drive. Every input is a parameter so the search can be tested for every
 * platform on one machine; the defaults are this machine's.
 * @returns {{ path: string, source: 'CHROMIUM_PATH' | 'chromium' | 'playwright' | 'chrome' }}
 */
export function findChromium({
  env = process.env,
  platform = process.platform,
  home = homedir(),
  exists = existsSync,
  playwrightPath = undefined,
} = {}) {
  const forced = env.CHROMIUM_PATH;
  if (forced) {
    if (exists(forced)) return { path: forced, source: 'CHROMIUM_PATH' };
    throw new Error(
      `CHROMIUM_PATH is ${forced}, but nothing is there. Point it at a Chromium or Chrome executable, or unset it.`,
    );
  }
  const places = usualLocations(platform, env, home);
  const chromium = places.chromium.find((path) => exists(path));
  if (chromium) return { path: chromium, source: 'chromium' };
  if (playwrightPath && exists(playwrightPath)) return { path: playwrightPath, source: 'playwright' };
  const chrome = places.chrome.find((path) => exists(path));
  if (chrome) return { path: chrome, source: 'chrome' };
  const looked = [...places.chromium, ...(playwrightPath ? [playwrightPath] : []), ...places.chrome];
  throw new Error(missingChromiumMessage(platform, looked));
}

/** findChromium on this machine, given Playwright's `chromium` (its own browser counts too). */
export function chromiumForThisMachine(playwrightChromium) {
  let playwrightPath;
  try {
    playwrightPath = playwrightChromium?.executablePath();
  } catch {
    // No browser registry for this platform: the other places still count.
  }
  return findChromium({ playwrightPath });
}
