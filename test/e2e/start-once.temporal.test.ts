/**
 * `npm start -- --once` end to end, as a person runs it: its own dev server (SQLite in a temporary data folder),
 * the sandbox, worker, HTTPS receiver and HTTP API, the demo, and an exit status that says whether every scenario
 * ended as expected. Free ports keep it clear of anything else on the machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/http/free-port';

const ROOT = path.join(__dirname, '..', '..');

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm start -- --once', () => {
  test('runs the whole story against the sandbox and exits 0 with every scenario as expected', async () => {
    const [temporalPort, uiPort, sandboxPort, apiPort] = await Promise.all(
      Array.from({ length: 4 }, () => freePort()),
    );
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ramp-start-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEMPORAL_ADDRESS: undefined,
      OPERATOR_BASE_URL: undefined,
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      TEMPORAL_DATA_DIR: dataDir,
      SANDBOX_PORT: String(sandboxPort),
      // Port 0 and no RECEIVER_PUBLIC_URL: the URL the account setup registers must follow the port actually bound.
      RECEIVER_PORT: '0',
      RECEIVER_PUBLIC_URL: undefined,
      API_PORT: String(apiPort),
    };
    const { code, output } = await run(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['src/entry/start.ts', '--once'],
      env,
      240_000,
    );
    if (code !== 0) process.stdout.write(output);
    expect(output).toMatch(/account setup +ready +ready +yes/);
    expect(output).toMatch(/off-ramp demo-alice +settled +settled +yes/);
    expect(output).toMatch(/on-ramp demo-alice +settled +settled +yes/);
    expect(output).toMatch(/off-ramp demo-bob \(no gas\) +stuck \+ alert +stuck \+ alert +yes/);
    expect(output).toContain(`Web UI: http://127.0.0.1:${uiPort}`);
    // The demo's stand-in for the client's backend verified and printed the outcome events before the summary.
    const beforeSummary = output.slice(0, output.indexOf('== Summary'));
    for (const type of [
      'deposit_wallet.created',
      'off_ramp.created',
      'off_ramp.settled',
      'off_ramp.stuck',
      'on_ramp.created',
      'on_ramp.settled',
    ]) {
      expect(beforeSummary).toMatch(
        new RegExp(`\\[client backend\\] verified ${type.replace('.', '\\.')} evt_`),
      );
    }
    expect(output).not.toContain('NOT verified');
    expect(output).toMatch(/\[client backend\] (\d+) outcome events received, \1 verified/);
    // The recipients the account setup registered (kept in the sandbox's state file) point at the bound port.
    const receiverUrl = /\[receiver\] webhooks over HTTPS on (https:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(receiverUrl).toBeDefined();
    expect(receiverUrl).not.toMatch(/:0$/);
    const state = JSON.parse(readFileSync(path.join(dataDir, 'sandbox-state.json'), 'utf8')) as {
      recipients: Record<'transaction' | 'order', Array<{ url: string }>>;
    };
    for (const kind of ['transaction', 'order'] as const) {
      expect(
        state.recipients[kind].map((recipient) => recipient.url.startsWith(`${receiverUrl}/webhooks/`)),
      ).toContain(true);
    }
    expect(code).toBe(0);
  }, 300_000);
});
