/**
 * The Temporal Web UI in a real browser (Debian's Chromium through playwright-core): an off-ramp settles on the
 * run's dev server, then the UI finds the end user's off-ramp by its search attribute (a visibility query in the
 * URL), opens it, shows its decoded state (status settled), and a screenshot is saved under .artifacts/web-ui/.
 * Skipped, saying why, only where Chromium is missing (scripts/install-chromium.sh installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { chromium, type BrowserContext } from 'playwright-core';
import { offRampWorkflowId } from '../../src/domain/ids';
import { connectTestClient, testServer } from '../helpers/temporal';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  startRampStack,
  waitFor,
} from '../helpers/ramp-stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', '..', '.artifacts', 'web-ui');
const skipReason = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (run scripts/install-chromium.sh as root)`
  : !process.env.TEST_TEMPORAL_UI_URL
    ? 'the run dev server has no Web UI (TEST_TEMPORAL_UI_URL is empty)'
    : null;
if (skipReason) console.warn(`[browser] Web UI test skipped: ${skipReason}`);
const maybe = skipReason ? test.skip : test;

describe('Temporal Web UI (Chromium)', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack | undefined;
  let browser: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    if (skipReason) return;
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await stack?.close();
    await connection?.close();
  });

  maybe('finds an end user off-ramp by its search attribute and shows it settled', async () => {
    stack = await startRampStack(client, connection);
    const user = await endUserWithWallet(stack, `ui-user-${Math.random().toString(36).slice(2, 8)}`);
    const depositId = await depositCrypto(stack, user.address, '50');
    expect((await offRampEnded(stack, depositId)).status).toBe('settled');
    const workflowId = offRampWorkflowId(depositId);
    const query = `RampEndUserId="${user.endUserId}" AND RampDirection="off-ramp"`;
    // The UI lists from visibility: wait until the server's own list query sees the settled process.
    await waitFor('visibility', async () => {
      for await (const execution of client.workflow.list({ query: `${query} AND RampStatus="settled"` }))
        if (execution.workflowId === workflowId) return true;
      return undefined;
    });

    profile = mkdtempSync(path.join(os.tmpdir(), 'ramp-chromium-'));
    // A new empty profile (--user-data-dir, which playwright sets from this argument).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      viewport: { width: 1440, height: 1000 },
      headless: true,
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
    const page = browser.pages()[0] ?? (await browser.newPage());
    const ui = process.env.TEST_TEMPORAL_UI_URL!;
    const { namespace } = testServer();
    const listUrl = `${ui}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;

    // 1. The list, filtered by the end user's search attribute, shows the off-ramp.
    await page.goto(listUrl, { waitUntil: 'domcontentloaded' });
    const link = page.locator(`a:has-text("${workflowId}")`).first();
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'offramp-list.png'), fullPage: true });
    const listText = await page.locator('body').innerText();
    expect(listText).toContain(workflowId);

    // 2. Its page shows the decoded state: status settled, the end user, the fiat amount.
    await link.click();
    await page.waitForURL(/\/workflows\/offramp%2F|\/workflows\/offramp\//, { timeout: 30_000 });
    await page.getByText('"settled"').first().waitFor({ state: 'visible', timeout: 30_000 });
    const detailText = await page.locator('body').innerText();
    expect(detailText).toContain(workflowId);
    expect(detailText).toContain('"settled"');
    expect(detailText).toContain(user.endUserId);
    const screenshot = path.join(ARTIFACTS, 'offramp-settled.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(existsSync(screenshot)).toBe(true);
  });
});
