import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium (.ci/run installs it), driven by playwright-core: no browser is downloaded.
 * `CHROMIUM` names another binary.
 */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** What a page said that a console page never should: errors, CSP refusals, failures. */
export interface PageProblems {
  problems: string[];
}

export async function launchChromium(): Promise<Browser> {
  // As root (CI's container) Chromium runs only without its sandbox.
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({ executablePath: CHROMIUM, args: asRoot ? ['--no-sandbox'] : [] });
}

/**
 * A page whose console errors and warnings (a CSP refusal is one), uncaught errors and failed
 * requests are kept in `problems`.
 */
export async function watchedPage(context: BrowserContext, problems: string[]): Promise<Page> {
  // Well within a test's time: a step that cannot go on fails with its own message.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${page.url()}: console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText ?? 'failed';
    // A request the browser gives up because the page moved on (the icon, as a link is followed).
    if (why !== 'net::ERR_ABORTED') problems.push(`${request.url()}: ${why}`);
  });
  return page;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's findings on the page of impact serious or critical, one line each. Evaluated
 * through the browser's devtools, which the page's CSP does not govern: the page itself runs
 * no script.
 */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${page.url()}: ${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    );
}
