/**
 * Headless Chromium for the end-to-end tests: Debian's `chromium` package driven by
 * playwright-core (no browser download). `.ci/run` installs the package when it is missing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * Screenshots go to docs/screenshots/ (shown in the README) when SCREENSHOTS=update, as
 * `npm run screenshots` sets it; otherwise to a temp folder, so a test run leaves the tree clean.
 */
export const screenshotDir =
  process.env.SCREENSHOTS === 'update'
    ? resolve(import.meta.dirname, '../../docs/screenshots')
    : join(tmpdir(), 'print-shop-admin-screenshots');

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function newContext(browser: Browser, origin: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Berlin', colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Fails the test on any script error or console error in the page (CSP violations included). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 401/403/404/422 the panel handles still logs "Failed to load resource"; those are expected.
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (401|403|404|409|422)/.test(message.text())
    ) {
      errors.push(`console: ${message.text()}`);
    }
  });
  return errors;
}

/** `<name>-<width>.png`, animations stopped; the whole page unless a modal is open (`fullPage: false`). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: join(screenshotDir, `${name}-${width}.png`),
    fullPage: options.fullPage ?? true,
    animations: 'disabled',
    caret: 'hide',
  });
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling on phones). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')) === true;
}
