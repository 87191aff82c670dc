/**
 * `npm start` as an integrator meets it: the story plays, and once it serves, the integrator's own first off-ramp
 * (its own end user, a deposit through the sandbox's simulation endpoint, everything else over the HTTP API) settles
 * at once, with no gas to fund first; the statement from the instant the story's last lines name holds that ramp
 * alone, none of the story's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_API_KEY } from '../../src/config/api';
import { freePort } from '../../src/http/free-port';
import { waitFor } from '../helpers/ramp-stack';

const ROOT = path.join(__dirname, '..', '..');

describe("npm start, then the integrator's own ramps", () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ramp-start-own-'));
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      const stuck = setTimeout(() => child!.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(stuck);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("after the story the sandbox settles an off-ramp of the integrator's at once, and the statement from the named instant holds it alone", async () => {
    const [temporalPort, uiPort, sandboxPort, apiPort] = await Promise.all(
      Array.from({ length: 4 }, () => freePort()),
    );
    child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/entry/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: undefined,
        OPERATOR_BASE_URL: undefined,
        DATABASE_URL: undefined,
        API_KEY: undefined,
        TEMPORAL_DEV_PORT: String(temporalPort),
        TEMPORAL_UI_PORT: String(uiPort),
        TEMPORAL_DATA_DIR: dataDir,
        SANDBOX_PORT: String(sandboxPort),
        RECEIVER_PORT: '0',
        RECEIVER_PUBLIC_URL: undefined,
        API_PORT: String(apiPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor(
        'the story to end and npm start to serve',
        () => (output.includes('Serving. Press Ctrl-C to stop.') ? true : undefined),
        240_000,
      );
    } catch (error) {
      process.stdout.write(output);
      throw error;
    }
    expect(output).not.toContain('Some scenarios did not end as expected');
    expect(output).toMatch(/off-ramp demo-bob, gas refilled +settled +settled +yes/);
    expect(output).toContain(
      'The sandbox is ready for your own ramps: the gas wallet holds 900 TRX and 0.06 ETH',
    );
    const from = /are booked before (\S+): a statement from then on has only yours/.exec(output)?.[1];
    expect(from).toBeDefined();
    expect(output).toContain(`  http://127.0.0.1:${apiPort}/v1/statement?from=${from!}&to=<ISO>`);

    const api = `http://127.0.0.1:${apiPort}`;
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${DEV_API_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as { data?: Record<string, unknown> };
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
      return json.data as Record<string, unknown>;
    };
    const wallet = (await call('POST', `${api}/v1/end-users/integrator-1/deposit-wallet`)) as {
      addresses: Array<{ network: string; address: string }>;
    };
    const tron = wallet.addresses.find((entry) => entry.network === 'networks/tron-mainnet')!.address;
    const deposit = await call('POST', `http://127.0.0.1:${sandboxPort}/sandbox/v1/offramp/deposits`, {
      address: tron,
      coin: 'USDT',
      amount: '40',
    });
    const depositId = String(deposit.transactionId);
    const seen: string[] = [];
    const settled = await waitFor(
      "the integrator's off-ramp to settle",
      async () => {
        const offRamp = await call('GET', `${api}/v1/off-ramps/${depositId}`);
        seen.push(String(offRamp.status));
        return offRamp.status === 'settled' ? offRamp : undefined;
      },
      120_000,
    );
    expect(settled).toMatchObject({ endUserId: 'integrator-1', fiatCurrency: 'MXN' });
    expect(seen).not.toContain('stuck');

    const to = await waitFor("the integrator's off-ramp booked", async () => {
      const until = new Date().toISOString();
      const statement = (await call(
        'GET',
        `${api}/v1/statement?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(until)}`,
      )) as { rows: Array<{ workflowId: string; endUserId: string | null }> };
      return statement.rows.length > 0 ? statement : undefined;
    });
    expect(to.rows.map((row) => [row.workflowId, row.endUserId])).toEqual([
      [`offramp/${depositId}`, 'integrator-1'],
    ]);
  }, 420_000);
});
