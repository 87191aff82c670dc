/**
 * The story `npm start` tells against the sandbox: account setup, gas funding, two end users' wallets, a quote,
 * one off-ramp and one on-ramp to settlement, and one off-ramp that strands for lack of gas (alert raised).
 * Every step goes through the product's real paths: the typed client, Temporal workflows, the operator client,
 * the sandbox over HTTP and its webhooks to our HTTPS receiver. Only the sandbox's simulation endpoints stand in
 * for the outside world (a bank transfer, a chain deposit, the account contact).
 */
import { randomUUID } from 'node:crypto';
import type { RampClient } from '../client/ramp-client';
import type { SandboxConfig } from '../config/sandbox';
import { formatAmount, parseAmount } from '../domain/decimal';
import { CHAINS } from '../domain/vocabulary';
import type { OffRampState, OffRampStatus } from '../../workflows/ramps/offramp/types';
import type { OnRampState, OnRampStatus } from '../../workflows/ramps/onramp/types';
import { isDrained, type Outbox } from '../../workflows/outcomes/outbox';

export interface ScenarioResult {
  scenario: string;
  expected: string;
  actual: string;
  ok: boolean;
  details: string;
}

export interface DemoOptions {
  ramp: RampClient;
  sandboxUrl: string;
  /** What the sandbox charges the gas wallet (its config's `gas`). */
  sandboxConfig: Pick<SandboxConfig, 'gas'>;
  say: (line: string) => void;
  /** Longest wait for one process to reach its expected end. */
  scenarioTimeoutMs: number;
  /** How often process state is read while waiting. */
  pollIntervalMs?: number;
}

const TRON = CHAINS.TRX.network;
const TRX = CHAINS.TRX.nativeAsset;
const ETH = CHAINS.ETH.nativeAsset;
/** The statuses after which a process changes no more (the demo waits for one of them). */
const OFF_RAMP_ENDED: readonly OffRampStatus[] = ['settled', 'failed', 'timed-out'];
const ON_RAMP_ENDED: readonly OnRampStatus[] = ['settled', 'expired', 'failed', 'timed-out'];

/** One row of the summary: ok when the process reached the status the scenario expects. */
function scenarioResult(
  scenario: string,
  expected: string,
  actual: string | undefined,
  details: string,
): ScenarioResult {
  return { scenario, expected, actual: actual ?? 'not started', ok: actual === expected, details };
}

/** Calls one of the sandbox's simulation endpoints (`/sandbox/v1<path>`); resolves its `data`, throws on an error. */
export async function simulate<T>(
  sandboxUrl: string,
  method: 'POST' | 'PUT' | 'GET',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sandboxUrl}/sandbox/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as { data?: T; error?: { message: string } };
  if (!response.ok)
    throw new Error(
      `sandbox ${method} ${path} answered ${response.status}: ${parsed.error?.message ?? 'no message'}`,
    );
  return parsed.data as T;
}

/** Reads a process's state until `done` says so (or the time runs out), printing each new step once. */
async function follow<S extends { status: string; step: string }>(
  label: string,
  read: () => Promise<S>,
  done: (state: S) => boolean,
  options: DemoOptions,
): Promise<S | undefined> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  let lastStep = '';
  let last: S | undefined;
  while (Date.now() < deadline) {
    try {
      last = await read();
      if (last.step !== lastStep) {
        options.say(`    ${label}: [${last.status}] ${last.step}`);
        lastStep = last.step;
      }
      if (done(last)) return last;
    } catch {
      // Not started yet (the first webhook is on its way): read again.
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
  return last;
}

/**
 * Waits until each process says every outcome event it raised is delivered or given up, so the story's last lines
 * follow the client's last notifications (a process reads as ended before its last event is sent).
 */
async function outcomesSent(
  processes: ReadonlyArray<{ label: string; read: () => Promise<{ outcomes?: Outbox }> }>,
  options: DemoOptions,
): Promise<void> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  let waiting = [...processes];
  while (waiting.length > 0) {
    const states = await Promise.all(waiting.map((process) => process.read().catch(() => undefined)));
    waiting = waiting.filter((_process, index) => {
      const outcomes = states[index]?.outcomes;
      return states[index] === undefined || (outcomes !== undefined && !isDrained(outcomes));
    });
    if (waiting.length === 0) return;
    if (Date.now() >= deadline) {
      const labels = waiting.map((process) => process.label).join(', ');
      options.say(`    outcome events still being sent after ${options.scenarioTimeoutMs} ms: ${labels}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
}

/** Bounds a step of the story, so a demo that cannot proceed says so instead of waiting forever. */
async function within<T>(what: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`${what} did not finish within ${timeoutMs} ms (is the worker failing? see its log)`),
            ),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function nativeBalance(
  wallet: { balances?: Array<{ asset: string; amount: string; network?: string }> },
  asset: string,
): bigint {
  const entry = wallet.balances?.find((balance) => balance.asset === asset);
  return entry ? parseAmount(entry.amount) : 0n;
}

export async function runDemo(options: DemoOptions): Promise<ScenarioResult[]> {
  const { ramp, sandboxUrl, sandboxConfig, say } = options;
  const results: ScenarioResult[] = [];
  const runTag = randomUUID().slice(0, 8);

  say('\n== 1. Account setup (master and gas wallets, webhook recipients)');
  const account = await within('account setup', options.scenarioTimeoutMs, ramp.setupAccount());
  say(`    master wallet ${account.masterWallet.walletId}, gas wallet ${account.gasWallet.walletId}`);
  for (const wallet of [account.masterWallet, account.gasWallet]) {
    for (const entry of wallet.addresses)
      say(`      ${wallet.role.padEnd(6)} ${entry.network.padEnd(26)} ${entry.address}`);
  }
  say(
    `    recipients: transaction ${account.recipients.transaction.id}, order ${account.recipients.order.id}`,
  );
  // The out-of-band step: the client hands the whitelisted addresses to its account contact.
  await simulate(sandboxUrl, 'PUT', '/account', {
    masterWalletId: account.masterWallet.walletId,
    gasWalletId: account.gasWallet.walletId,
  });
  say('    (sandbox) the account contact whitelisted the wallets');
  results.push({
    scenario: 'account setup',
    expected: 'ready',
    actual: 'ready',
    ok: true,
    details: `gas wallet ${account.gasWallet.walletId}`,
  });

  say('\n== 2. Two end users get their deposit wallets');
  const [alice, bob] = await within(
    'deposit wallets',
    options.scenarioTimeoutMs,
    Promise.all([ramp.ensureDepositWallet('demo-alice'), ramp.ensureDepositWallet('demo-bob')]),
  );
  const aliceTron = alice.addresses.find((entry) => entry.network === TRON)!.address;
  const bobTron = bob.addresses.find((entry) => entry.network === TRON)!.address;
  say(`    demo-alice: wallet ${alice.walletId}, Tron ${aliceTron}`);
  say(`    demo-bob:   wallet ${bob.walletId}, Tron ${bobTron}`);

  say('\n== 3. Gas: fund the gas wallet for exactly one Autoswap');
  const gasCost = sandboxConfig.gas.TRX;
  const aliceNeeds = parseAmount(gasCost.topUp) + parseAmount(gasCost.sweep);
  const remainder = parseAmount('5');
  const gasWallet = await simulate<{ balances?: Array<{ asset: string; amount: string }> }>(
    sandboxUrl,
    'GET',
    `/wallets/${account.gasWallet.walletId}`,
  );
  const current = nativeBalance(gasWallet, TRX);
  const funding = aliceNeeds + remainder - current;
  if (funding > 0n) {
    await simulate(sandboxUrl, 'POST', `/wallets/${account.gasWallet.walletId}/balances`, {
      asset: TRX,
      amount: formatAmount(funding),
    });
  }
  await simulate(sandboxUrl, 'POST', `/wallets/${account.gasWallet.walletId}/balances`, {
    asset: ETH,
    amount: '0.01',
  });
  say(
    `    gas wallet holds ${formatAmount(current + (funding > 0n ? funding : 0n))} TRX (one top-up ${gasCost.topUp} + one sweep ${gasCost.sweep}, and a little)`,
  );

  say('\n== 4. A quote, shown before the deposit');
  const quote = await ramp.quote({
    direction: 'off-ramp',
    coinFrom: 'USDT',
    chainFrom: 'TRX',
    coinTo: 'MXN',
    amountFrom: '100',
  });
  say(`    100 USDT (Tron) -> ${quote.targetAmount} MXN, valid until ${quote.expiresAt}`);

  say('\n== 5. demo-alice sells 100 USDT (off-ramp / Autoswap)');
  const aliceDeposit = await simulate<{ transactionId: string }>(sandboxUrl, 'POST', '/offramp/deposits', {
    address: aliceTron,
    coin: 'USDT',
    amount: '100',
  });
  say(`    deposit ${aliceDeposit.transactionId} sent on chain`);
  const aliceOffRamp = await follow<OffRampState>(
    'off-ramp',
    () => ramp.getOffRamp(aliceDeposit.transactionId),
    (state) => OFF_RAMP_ENDED.includes(state.status),
    options,
  );
  results.push(
    scenarioResult(
      'off-ramp demo-alice',
      'settled',
      aliceOffRamp?.status,
      aliceOffRamp?.fiatAmount
        ? `${aliceOffRamp.fiatAmount} ${aliceOffRamp.fiatCurrency ?? 'MXN'}, order ${aliceOffRamp.orderId ?? '?'}`
        : '',
    ),
  );

  say('\n== 6. demo-alice buys USDT with 1725.00 MXN (on-ramp)');
  const reference = `demo-${runTag}`;
  const started = await ramp.startOnRamp('demo-alice', reference, {
    quoteRequest: {
      direction: 'on-ramp',
      coinFrom: 'MXN',
      coinTo: 'USDT',
      chainTo: 'TRX',
      amountFrom: '1725.00',
    },
  });
  say(
    `    on-ramp ${started.workflowId}: quote ${started.quote?.targetAmount ?? '?'} USDT; the user transfers MXN to the CLABE (reference ${reference})`,
  );
  await simulate(sandboxUrl, 'POST', '/onramp/deposits', {
    reference,
    amount: '1725.00',
    coinTo: 'USDT',
    chainTo: 'TRX',
  });
  const onRamp = await follow<OnRampState>(
    'on-ramp',
    () => ramp.getOnRamp(reference),
    (state) => ON_RAMP_ENDED.includes(state.status),
    options,
  );
  results.push(
    scenarioResult(
      'on-ramp demo-alice',
      'settled',
      onRamp?.status,
      onRamp?.cryptoAmount ? `${onRamp.cryptoAmount} ${onRamp.asset ?? 'USDT'} to the master wallet` : '',
    ),
  );

  say('\n== 7. demo-bob sells 50 USDT, but the gas wallet cannot pay');
  const bobDeposit = await simulate<{ transactionId: string }>(sandboxUrl, 'POST', '/offramp/deposits', {
    address: bobTron,
    coin: 'USDT',
    amount: '50',
  });
  say(`    deposit ${bobDeposit.transactionId} sent on chain`);
  const bobOffRamp = await follow<OffRampState>(
    'off-ramp',
    () => ramp.getOffRamp(bobDeposit.transactionId),
    (state) => (state.status === 'stuck' && state.alertsRaised > 0) || OFF_RAMP_ENDED.includes(state.status),
    options,
  );
  const shortfall = bobOffRamp?.gasCheck;
  results.push(
    scenarioResult(
      'off-ramp demo-bob (no gas)',
      'stuck + alert',
      bobOffRamp && `${bobOffRamp.status}${bobOffRamp.alertsRaised > 0 ? ' + alert' : ''}`,
      shortfall ? `gas ${shortfall.asset} balance ${shortfall.balance ?? '?'} < ${shortfall.minimum}` : '',
    ),
  );
  await outcomesSent(
    [
      { label: 'end user demo-alice', read: () => ramp.getEndUser('demo-alice') },
      { label: 'end user demo-bob', read: () => ramp.getEndUser('demo-bob') },
      { label: 'off-ramp demo-alice', read: () => ramp.getOffRamp(aliceDeposit.transactionId) },
      { label: 'on-ramp demo-alice', read: () => ramp.getOnRamp(reference) },
      { label: 'off-ramp demo-bob', read: () => ramp.getOffRamp(bobDeposit.transactionId) },
    ],
    options,
  );
  return results;
}

export function formatSummary(results: ScenarioResult[]): string {
  const header = ['scenario', 'expected', 'actual', 'ok', 'details'];
  const rows = results.map((result) => [
    result.scenario,
    result.expected,
    result.actual,
    result.ok ? 'yes' : 'NO',
    result.details,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
