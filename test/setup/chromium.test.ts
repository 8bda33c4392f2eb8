// The browser search on each system. Other systems cannot run here, so the file system is a set of
// paths (a test double, by necessity); the last test runs the real search on this machine.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { chromiumForThisMachine, findChromium } from '../../scripts/chromium.mjs';

const on = (...paths: string[]) => {
  const present = new Set(paths);
  return (path: string) => present.has(path);
};
const PLAYWRIGHT = '/home/dev/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, and says so when nothing is there', () => {
    const env = { CHROMIUM_PATH: '/opt/custom/chrome' };
    expect(
      findChromium({ env, platform: 'linux', exists: on('/opt/custom/chrome', '/usr/bin/chromium') }),
    ).toEqual({ path: '/opt/custom/chrome', source: 'CHROMIUM_PATH' });
    expect(() => findChromium({ env, platform: 'linux', exists: on('/usr/bin/chromium') })).toThrow(
      /CHROMIUM_PATH is \/opt\/custom\/chrome, but nothing is there/,
    );
  });

  it('on Linux prefers a Chromium package, then Playwright, then Google Chrome', () => {
    const all = on('/usr/bin/chromium-browser', PLAYWRIGHT, '/usr/bin/google-chrome');
    expect(findChromium({ env: {}, platform: 'linux', exists: all, playwrightPath: PLAYWRIGHT })).toEqual({
      path: '/usr/bin/chromium-browser',
      source: 'chromium',
    });
    const noChromium = on(PLAYWRIGHT, '/usr/bin/google-chrome');
    expect(
      findChromium({ env: {}, platform: 'linux', exists: noChromium, playwrightPath: PLAYWRIGHT }).source,
    ).toBe('playwright');
    expect(findChromium({ env: {}, platform: 'linux', exists: on('/usr/bin/google-chrome') })).toEqual({
      path: '/usr/bin/google-chrome',
      source: 'chrome',
    });
  });

  it('on macOS looks in /Applications and ~/Applications', () => {
    const chrome = '/Users/ada/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium({ env: {}, platform: 'darwin', home: '/Users/ada', exists: on(chrome) })).toEqual({
      path: chrome,
      source: 'chrome',
    });
    const chromiumApp = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(
      findChromium({ env: {}, platform: 'darwin', home: '/Users/ada', exists: on(chrome, chromiumApp) }).path,
    ).toBe(chromiumApp);
  });

  it('on Windows looks under LOCALAPPDATA and both Program Files', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' };
    const chrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium({ env, platform: 'win32', exists: on(chrome) })).toEqual({
      path: chrome,
      source: 'chrome',
    });
    const local = 'C:\\Users\\ada\\AppData\\Local\\Chromium\\Application\\chrome.exe';
    expect(findChromium({ env, platform: 'win32', exists: on(chrome, local) }).path).toBe(local);
  });

  it('when nothing is found, names all three ways and where it looked', () => {
    let message = '';
    try {
      findChromium({
        env: {},
        platform: 'darwin',
        home: '/Users/ada',
        exists: on(),
        playwrightPath: PLAYWRIGHT,
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('set CHROMIUM_PATH');
    expect(message).toContain('/Applications');
    expect(message).toContain('npx playwright install chromium');
    expect(message).toContain(PLAYWRIGHT);
  });

  it('finds a browser that exists on this machine', () => {
    expect(existsSync(chromiumForThisMachine(chromium).path)).toBe(true);
  });
});
