/**
 * Day one against an operator that is not what we assumed, for real: a sandbox serving a profile, the worker, the
 * HTTPS receiver and the dev server. With the matching profile the product runs the account setup, a deposit wallet,
 * an off-ramp and an on-ramp to settlement; then `npm run operator:probe`'s checks, run with our assumptions, find
 * exactly what the sandbox's profile changes. Against the default sandbox every assumption holds.
 */
import { offRampStateQuery } from '../../workflows/ramps/offramp/messages';
import { freshTestDatabase } from '../helpers/database';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { createActivities } from '../../activities';
import { RampClient } from '../../src/client/ramp-client';
import { loadOperatorConfig } from '../../src/config/operator';
import {
  DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID,
  DEFAULT_PROCESS_IDS,
  offRampWorkflowId,
} from '../../src/domain/ids';
import { DEFAULT_OPERATOR_PROFILE, type OperatorProfile } from '../../src/domain/operator-profile';
import { NETWORKS } from '../../src/domain/vocabulary';
import { OperatorClient } from '../../src/operator/client';
import { runProbe } from '../../src/probe/run';
import { sampleIssues } from '../../src/probe/samples';
import type { RunningSandbox } from '../../src/sandbox/server';
import { SecretString } from '../../src/secrets/secret-string';
import { startReceiver, type RunningReceiver } from '../../src/webhooks/receiver';
import { testActivityConfig } from '../helpers/activities';
import { captureLines } from '../helpers/logs';
import { plantedDifferences, variantProfile } from '../helpers/operator-profiles';
import { depositCrypto, rampTimings, sandboxCall, waitFor } from '../helpers/ramp-stack';
import { testReceiverConfig } from '../helpers/receiver';
import { startSandboxOnLoopback } from '../helpers/sandbox';
import { connectTestClient, type RunningTestWorker, startTestWorker, testServer } from '../helpers/temporal';

const EMAIL = 'day-one@client.example';
const PASSCODE = 'day-one-passcode-4f1b';
/** What the probe's row about signed deliveries is filed under. */
const DELIVERIES_ROW = 'src/config/receiver.ts (recipient URL secrets)';

interface Settled {
  sandbox: RunningSandbox;
  receiver: RunningReceiver;
  operator: OperatorClient;
  wallets: string[];
  orders: string[];
  close(): Promise<void>;
}

let connected: { client: Client; connection: Connection };
beforeAll(async () => {
  connected = await connectTestClient();
});
afterAll(() => connected.connection.close());

/** The whole product on a sandbox serving `profile`, given the same profile; both ramps run to settlement. */
async function settleBothRamps(
  profile: OperatorProfile,
  sandboxExtras: { deliveryHeaders?: Record<string, string> } = {},
): Promise<Settled> {
  const { client, connection } = connected;
  const sandbox = await startSandboxOnLoopback({
    seed: Math.floor(Math.random() * 2 ** 31),
    email: EMAIL,
    passcode: PASSCODE,
    profile,
    ...sandboxExtras,
  });
  const { logger } = captureLines();
  const operator = new OperatorClient({
    config: {
      ...loadOperatorConfig({
        OPERATOR_BASE_URL: sandbox.url,
        OPERATOR_EMAIL: EMAIL,
        OPERATOR_PASSCODE: PASSCODE,
      }),
      profile,
    },
    logger,
  });
  const timings = rampTimings();
  const taskQueue = `test-${randomUUID()}`;
  const receiverConfig = testReceiverConfig();
  const receiver = await startReceiver(receiverConfig, {
    temporal: client,
    taskQueue,
    timings,
    logger,
    operator,
  });
  const processIds = {
    ...DEFAULT_PROCESS_IDS,
    accountSetupWorkflowId: `${DEFAULT_ACCOUNT_SETUP_WORKFLOW_ID}-${randomUUID()}`,
  };
  const database = await freshTestDatabase();
  const worker: RunningTestWorker = await startTestWorker(
    createActivities({
      operator,
      temporal: client,
      logger,
      ledger: database.db,
      config: testActivityConfig({
        receiver: () => ({ ...receiverConfig, publicUrl: receiver.url }),
        processIds,
      }),
    }),
    taskQueue,
  );
  const ramp = new RampClient({
    connection,
    database,
    namespace: testServer().namespace,
    taskQueue,
    timings,
    processIds,
  });
  const close = async () => {
    await receiver.close();
    await sandbox.close();
    await worker.stop();
    await database.close();
  };
  try {
    // Account setup: the master and gas wallets and both recipient kinds, through the account-setup workflow.
    const account = await ramp.setupAccount();
    expect(account.addedRecipients.map((recipient) => recipient.kind).sort()).toEqual([
      'order',
      'transaction',
    ]);
    const [master, gas] = [account.masterWallet.walletId, account.gasWallet.walletId];
    await sandboxCall(sandbox, 'PUT', '/sandbox/v1/account', { masterWalletId: master, gasWalletId: gas });
    await sandboxCall(sandbox, 'POST', `/sandbox/v1/wallets/${gas}/balances`, {
      asset: 'TRX',
      amount: '1000',
    });

    // A deposit wallet, and an off-ramp from it.
    const endUserId = `user-${randomUUID().slice(0, 8)}`;
    const wallet = await ramp.ensureDepositWallet(endUserId);
    const tron = wallet.addresses.find((entry) => entry.network === NETWORKS.tron)!;
    const depositId = await depositCrypto(
      { sandbox } as Parameters<typeof depositCrypto>[0],
      tron.address,
      '50',
    );
    const offRamp = await waitFor('the off-ramp to settle', async () => {
      const state = await ramp.getOffRamp(depositId);
      return ['settled', 'failed', 'timed-out'].includes(state.status) ? state : undefined;
    });
    expect(offRamp).toMatchObject({
      status: 'settled',
      endUserId,
      fiatAmount: '858.18',
      fiatCurrency: 'MXN',
    });
    const offRampState = await client.workflow
      .getHandle(offRampWorkflowId(depositId))
      .query(offRampStateQuery);
    expect(offRampState.gasTopUp?.status).toBe('confirmed');

    // An on-ramp, started by the typed client, paid by CLABE.
    const reference = `ref-${randomUUID().slice(0, 12)}`;
    await ramp.startOnRamp(endUserId, reference);
    const onRampDeposit = await sandboxCall(sandbox, 'POST', '/sandbox/v1/onramp/deposits', {
      reference,
      amount: '1000',
      coinTo: 'USDT',
      chainTo: 'TRX',
    });
    const onRamp = await waitFor('the on-ramp to settle', async () => {
      const state = await ramp.getOnRamp(reference);
      return ['settled', 'expired', 'failed', 'timed-out'].includes(state.status) ? state : undefined;
    });
    expect(onRamp).toMatchObject({ status: 'settled', endUserId, asset: 'USDT', unattributed: false });
    expect(onRamp.deposit?.transactionId).toBe(onRampDeposit.transactionId);
    return {
      sandbox,
      receiver,
      operator,
      wallets: [master, gas, wallet.walletId],
      orders: [String(onRampDeposit.orderId), offRamp.orderId!],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function probe(settled: Settled, loginProfile?: OperatorProfile) {
  return runProbe({
    baseUrl: settled.sandbox.url,
    email: EMAIL,
    passcode: new SecretString(PASSCODE),
    timeoutMs: 5_000,
    profile: DEFAULT_OPERATOR_PROFILE,
    ...(loginProfile ? { loginProfile } : {}),
    wallets: settled.wallets,
    transactions: [],
    orders: settled.orders,
    allowWrites: true,
    receiver: { readyzUrl: `${settled.receiver.url}/readyz` },
  });
}

/**
 * Runs the probe with global fetch watched: every bearer token, CSRF value and session the run saw, with the
 * passcode and the e-mail, are the secrets none of the samples may hold.
 */
async function probeWatched(settled: Settled, loginProfile?: OperatorProfile) {
  const secrets = new Set<string>([PASSCODE, EMAIL]);
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    for (const [name, value] of Object.entries((init?.headers ?? {}) as Record<string, string>))
      if (/authorization|csrf/i.test(name)) secrets.add(value.replace(/^Bearer /, ''));
    const response = await original(input, init);
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { data?: { session?: { token?: string; csrfToken?: string } } } | undefined;
    for (const value of [body?.data?.session?.token, body?.data?.session?.csrfToken])
      if (value) secrets.add(value);
    return response;
  };
  try {
    const result = await probe(settled, loginProfile);
    expect(secrets.size).toBeGreaterThan(4);
    return { ...result, secrets: [...secrets] };
  } finally {
    globalThis.fetch = original;
  }
}

describe('the operator profile, day one (sandbox + receiver + dev server)', () => {
  test('against the default sandbox: both ramps settle, and the probe confirms every assumption', async () => {
    const settled = await settleBothRamps(DEFAULT_OPERATOR_PROFILE);
    try {
      const { report, samples, secrets } = await probeWatched(settled);
      const notConfirmed = report.rows.filter((row) => row.verdict !== 'confirmed');
      expect(notConfirmed).toEqual([]);
      expect(report.exitCode).toBe(0);
      const deliveries = report.rows.find((row) => row.key === DELIVERIES_ROW)!;
      expect(deliveries.seen).toMatch(/transaction-created \(\d\): .*content-type/);

      // Every answer is saved, redacted, and the product's schemas read each of them.
      const dir = mkdtempSync(path.join(tmpdir(), 'operator-samples-'));
      const files = samples.writeTo(dir);
      expect(files.length).toBeGreaterThan(40);
      const saved = readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
      for (const text of saved) expect(sampleIssues(JSON.parse(text), DEFAULT_OPERATOR_PROFILE)).toEqual([]);
      expect(saved.some((text) => text.includes('"operation": "authenticate"'))).toBe(true);
      for (const secret of secrets) for (const text of saved) expect(text).not.toContain(secret);
    } finally {
      await settled.close();
    }
  });

  test('against a variant operator: the product given its profile settles both ramps; the probe with ours finds exactly what differs', async () => {
    const variant = variantProfile();
    // This operator also signs its deliveries (in a header the receiver reports, never checks).
    const settled = await settleBothRamps(variant, {
      deliveryHeaders: { 'x-operator-signature': 'sha256=0f1e2d3c4b5a69788796a5b4c3d2e1f0' },
    });
    try {
      const { report, samples, secrets } = await probeWatched(settled, variant);
      const contradicted = report.contradictions.map((row) => row.key).sort();
      expect(contradicted).toEqual([...plantedDifferences(variant), DELIVERIES_ROW].sort());
      expect(report.exitCode).toBe(2);
      // Every part of the profile has a planted difference, and the probe saw each.
      for (const part of ['routes', 'csrfHeaderNames', 'login', 'errors', 'paging', 'vocabulary', 'links'])
        expect(contradicted.some((key) => key === part || key.startsWith(`${part}.`))).toBe(true);
      expect(report.rows.find((row) => row.key === DELIVERIES_ROW)!.seen).toContain('x-operator-signature');

      // Its samples are the variant's: the product reads them under the variant's profile, not under ours.
      const all = samples.samples();
      for (const sample of all) expect(sampleIssues(sample, variant)).toEqual([]);
      expect(
        all.filter((sample) => sampleIssues(sample, DEFAULT_OPERATOR_PROFILE).length > 0).length,
      ).toBeGreaterThan(5);
      const text = JSON.stringify(all);
      for (const secret of secrets) expect(text).not.toContain(secret);
    } finally {
      await settled.close();
    }
  });
});
