/**
 * `npm run operator:probe` as a person runs it, against a sandbox over HTTP: its table and exit status, the answers
 * it saves (redacted), that it writes nothing to the operator without --allow-writes and cleans up after itself with
 * it, and a bad profile refused before any call.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../../src/config/project-root';
import { PROBE_WALLET_LABEL } from '../../../src/probe/wallet-checks';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { EMAIL, PASSCODE, operatorCalls, startTestSandbox } from '../../helpers/operator';
import { VARIANT_PROFILE_FILE, variantProfile } from '../../helpers/operator-profiles';

const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const ENTRY = path.join(PROJECT_ROOT, 'src', 'entry', 'operator-probe.ts');

async function runCommand(
  sandbox: RunningSandbox,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string; samples: string[]; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'probe-samples-'));
  const result = await promisify(execFile)(
    TSX,
    [ENTRY, '--samples', dir, '--receiver', 'https://127.0.0.1:9', ...args],
    {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH,
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: EMAIL,
        OPERATOR_PASSCODE: PASSCODE,
        OPERATOR_REQUEST_TIMEOUT: '5s',
        ...env,
      },
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  const samples = readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
  return { ...result, samples, dir };
}

describe('npm run operator:probe', () => {
  let sandbox: RunningSandbox;
  afterEach(() => sandbox.close());

  test('read-only against the default sandbox: exit 0, nothing written, every answer saved without a secret', async () => {
    sandbox = await startTestSandbox();
    const run = await runCommand(sandbox, []);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^CONFIRMED\s+routes\.startSession$/m);
    expect(run.stdout).toMatch(/^CONFIRMED\s+csrfHeaderNames$/m);
    expect(run.stdout).toMatch(/^NOT CHECKABLE\s+routes\.getWalletAddresses$/m);
    expect(run.stdout).toMatch(/to check: --wallet <id>,<id>/);
    expect(run.stdout).toMatch(/0 contradicted/);
    // Read-only: the only POSTs are the login's.
    const writes = (await operatorCalls(sandbox)).filter((call) => call.method !== 'GET');
    expect(new Set(writes.map((call) => call.route))).toEqual(new Set(['startSession', 'authenticate']));
    expect(run.samples.length).toBeGreaterThan(5);
    const authenticated = run.samples.find((text) => text.includes('"operation": "authenticate"'))!;
    expect(JSON.parse(authenticated).body.data.session).toEqual({
      token: '[REDACTED]',
      csrfToken: '[REDACTED]',
      expiresAt: expect.any(String),
    });
    for (const text of run.samples) {
      expect(text).not.toContain(PASSCODE);
      expect(text).not.toContain(EMAIL);
    }
  });

  test('--allow-writes: one labelled probe wallet, and every recipient it made deleted again', async () => {
    sandbox = await startTestSandbox();
    const run = await runCommand(sandbox, ['--allow-writes', '--json']);
    const { rows } = JSON.parse(run.stdout) as { rows: Array<{ key: string; verdict: string }> };
    expect(rows.filter((row) => row.verdict === 'contradicted')).toEqual([]);
    expect(rows.find((row) => row.key === 'routes.deleteOrderRecipient')?.verdict).toBe('confirmed');
    expect(run.code).toBe(0);
    const wallets = [...sandbox.state.wallets.values()];
    expect(wallets.map((wallet) => wallet.externalUserId)).toEqual([PROBE_WALLET_LABEL]);
    expect(sandbox.state.recipients.transaction.size + sandbox.state.recipients.order.size).toBe(0);
    const created = (await operatorCalls(sandbox)).filter(
      (call) => call.route?.startsWith('create') && call.status < 300,
    );
    expect(created.map((call) => call.route)).toEqual([
      'createWallet',
      'createTransactionRecipients',
      'createOrderRecipients',
    ]);
  });

  test('against the variant sandbox with our assumptions: exit 2, the login contradicted, the rest needs a session', async () => {
    sandbox = await startTestSandbox({ profile: variantProfile() });
    const run = await runCommand(sandbox, []);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^CONTRADICTED\s+routes\.startSession$/m);
    expect(run.stdout).toMatch(/^NOT CHECKABLE\s+vocabulary\.transactionStatuses$/m);
    expect(run.stdout).toMatch(/give --login-profile/);
    // With the variant's own profile it holds.
    const matching = await runCommand(sandbox, [], { OPERATOR_PROFILE: VARIANT_PROFILE_FILE });
    expect(matching.stdout).not.toMatch(/^CONTRADICTED/m);
    expect(matching.code).toBe(0);
  });

  test('a bad OPERATOR_PROFILE stops it before any call, naming the key', async () => {
    sandbox = await startTestSandbox();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'profile-')), 'profile.json');
    writeFileSync(file, JSON.stringify({ vocabulary: { orderStatuses: { executd: 'FILLED' } } }));
    const run = await runCommand(sandbox, [], { OPERATOR_PROFILE: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('OPERATOR_PROFILE.vocabulary.orderStatuses: Unrecognized key: "executd"');
    expect(await operatorCalls(sandbox)).toEqual([]);
  });
});
