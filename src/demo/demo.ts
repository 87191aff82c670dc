/**
 * The story `npm start` tells against the sandbox: account setup, gas funding, two end users' wallets, a quote shown
 * for a deposit, one off-ramp and one on-ramp to settlement, an off-ramp that executes off its quote after the price
 * moved (an exception by name), one that strands for lack of gas (alert raised), an on-ramp nobody announced,
 * claimed by its end user after it settled, and the gas wallet refilled: the stranded off-ramp settles, and the
 * sandbox is left ready for the integrator's own ramps, the story's all booked before the instant it names.
 * Every step goes through the product's real paths: the typed client, Temporal workflows, the operator client,
 * the sandbox over HTTP and its webhooks to our HTTPS receiver. Only the sandbox's simulation endpoints stand in
 * for the outside world (a bank transfer, a chain deposit, the account contact).
 */
import { randomUUID } from 'node:crypto';
import type { RampClient } from '../client/ramp-client';
import type { SandboxConfig } from '../config/sandbox';
import { formatAmount, parseAmount } from '../domain/decimal';
import { offRampWorkflowId, onRampWorkflowId } from '../domain/ids';
import { CHAINS } from '../domain/vocabulary';
import { RATES_MXN_PER_TOKEN } from '../sandbox/pricing';
import type { OffRampView, OnRampView } from '../ledger/views';
import type { OffRampStatus } from '../../workflows/ramps/offramp/types';
import type { OnRampStatus } from '../../workflows/ramps/onramp/types';
import type { AccountSetupResult } from '../../workflows/account-setup/types';
import { simulate } from './simulate';
import { follow, outcomesSent, type WaitOptions, within } from './waiting';

export interface ScenarioResult {
  scenario: string;
  expected: string;
  actual: string;
  ok: boolean;
  details: string;
}

/** What the story leaves: its scenarios' results, and the sandbox ready for the integrator's own ramps. */
export interface DemoOutcome {
  results: ScenarioResult[];
  /** Every ramp of the story is booked before this instant: a statement from it on has only the integrator's. */
  statementFrom: string;
  /** What the gas wallet holds once the story is over, e.g. "900 TRX and 0.06 ETH". */
  gasLeft: string;
}

export interface DemoOptions extends WaitOptions {
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
/** USDT's price after the market moved in the story: 4 % under the sandbox's, well past the 1 % default tolerance. */
const DEMO_MOVED_PRICE = '16.56';
/** The off-ramps of new deposit wallets (a top-up and a sweep each) the gas wallet can pay for when the story ends. */
const READY_AUTOSWAPS = 20n;

export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  const { ramp } = options;
  const began = new Date().toISOString();
  const account = await setUpAccount(options);
  const gasWalletId = account.gasWallet.walletId;
  const { aliceTron, bobTron, aliceWalletId, bobWalletId } = await giveDepositWallets(options);
  await fundGasForAliceAutoswaps(options, gasWalletId, aliceWalletId);
  await showDepositQuote(options);
  const aliceSells = await aliceSellsUsdt(options, aliceTron);
  // References of this run's own: an on-ramp runs once per order reference.
  const reference = `demo-${randomUUID().slice(0, 8)}`;
  const aliceBuys = await aliceBuysUsdt(options, reference);
  const offQuote = await aliceSellsAfterThePriceMoved(options, aliceTron);
  const bobSells = await bobSellsWithoutGas(options, bobTron);
  const lateReference = `demo-late-${randomUUID().slice(0, 8)}`;
  const lateClaim = await bobClaimsAfterItSettled(options, lateReference);
  const refilled = await gasRefilledForBob(options, gasWalletId, bobWalletId, bobSells.depositId);
  await outcomesSent(async () => {
    const pending = await ramp.listEvents({ status: 'pending', limit: 100 });
    return pending.data.map((event) => event.webhookId);
  }, options);
  const statementFrom = await storyBooked(options, began, [
    ...[aliceSells, offQuote, bobSells].map(({ depositId }) => offRampWorkflowId(depositId)),
    ...[reference, lateReference].map(onRampWorkflowId),
  ]);
  const results = [
    {
      scenario: 'account setup',
      expected: 'ready',
      actual: 'ready',
      ok: true,
      details: `gas wallet ${gasWalletId}`,
    },
    aliceSells.result,
    aliceBuys,
    offQuote.result,
    bobSells.result,
    lateClaim,
    refilled,
  ];
  return { results, statementFrom, gasLeft: await gasHeld(options, gasWalletId) };
}

/** The story's last lines: the sandbox is ready, and where the integrator's own statement begins. */
export function formatReadiness(outcome: DemoOutcome, apiUrl?: string): string {
  const from = outcome.statementFrom;
  return [
    `The sandbox is ready for your own ramps: the gas wallet holds ${outcome.gasLeft} (enough for ` +
      `${READY_AUTOSWAPS} off-ramps of new`,
    "deposit wallets), and every ramp of the story has ended. The story's ramps (end users demo-alice and demo-bob)",
    `are booked before ${from}: a statement from then on has only yours:`,
    `  ${apiUrl ?? '$API'}/v1/statement?from=${from}&to=<ISO>`,
    `  npm run statement -- --from ${from} --to <ISO>`,
  ].join('\n');
}

/** One row of the summary: ok when the process reached the status the scenario expects. */
function scenarioResult(
  scenario: string,
  expected: string,
  actual: string | undefined,
  details: string,
): ScenarioResult {
  return { scenario, expected, actual: actual ?? 'not started', ok: actual === expected, details };
}

async function setUpAccount(options: DemoOptions): Promise<AccountSetupResult> {
  const { ramp, sandboxUrl, say } = options;
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
  return account;
}

/** Both end users' deposit wallets, and the Tron address each deposits to. */
async function giveDepositWallets(
  options: DemoOptions,
): Promise<{ aliceTron: string; bobTron: string; aliceWalletId: string; bobWalletId: string }> {
  const { ramp, say } = options;
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
  return { aliceTron, bobTron, aliceWalletId: alice.walletId, bobWalletId: bob.walletId };
}

/**
 * Gas for alice's two Autoswaps and a little more, so that bob's strands for lack of it; set outright, since a gas
 * wallet the sandbox kept from an earlier `npm start` holds what that story left it. A wallet's first Autoswap on a
 * network also pays its one-time top-up: on a later `npm start` alice's needs none. Off-ramps an earlier story left
 * stranded get theirs too (setting the balance resumes them), and the little more stays under one sweep, so bob's
 * strands either way. Nothing in the story spends ETH: it gets the amount the story leaves in the end.
 */
async function fundGasForAliceAutoswaps(
  options: DemoOptions,
  gasWalletId: string,
  aliceWalletId: string,
): Promise<void> {
  const { sandboxUrl, sandboxConfig, say } = options;
  say("\n== 3. Gas: the gas wallet holds exactly demo-alice's two Autoswaps, and a little");
  const gasCost = sandboxConfig.gas.TRX;
  const aliceFirst = await autoswapGas(options, aliceWalletId);
  const stranded = await simulate<Array<{ network: string; stranded: 'gas_top_up' | 'gas_sweep' }>>(
    sandboxUrl,
    'GET',
    '/offramp/runs?status=stranded',
  );
  const strandedNeeds = stranded
    .filter((run) => run.network === TRON)
    .reduce(
      (sum, run) =>
        sum + parseAmount(gasCost.sweep) + (run.stranded === 'gas_top_up' ? parseAmount(gasCost.topUp) : 0n),
      0n,
    );
  const holds = strandedNeeds + aliceFirst + parseAmount(gasCost.sweep) + parseAmount('5');
  await setGas(options, gasWalletId, TRX, holds);
  await setGas(options, gasWalletId, ETH, READY_AUTOSWAPS * autoswapCost(options, 'ETH'));
  const topUp = aliceFirst > parseAmount(gasCost.sweep) ? `one top-up ${gasCost.topUp} + ` : '';
  const resumed = stranded.length > 0 ? `, ${stranded.length} off-ramp(s) an earlier run left stranded` : '';
  say(
    `    gas wallet holds ${formatAmount(holds)} TRX (${topUp}two sweeps of ${gasCost.sweep}${resumed}, and a little)`,
  );
}

/** A top-up and a sweep on a chain: what one off-ramp of a new deposit wallet costs the gas wallet. */
const autoswapCost = (options: DemoOptions, chain: 'ETH' | 'TRX') =>
  parseAmount(options.sandboxConfig.gas[chain].topUp) + parseAmount(options.sandboxConfig.gas[chain].sweep);

/** The gas a deposit wallet's next Autoswap on Tron costs: a sweep, and its one-time top-up unless it had it. */
async function autoswapGas(options: DemoOptions, walletId: string): Promise<bigint> {
  const gasCost = options.sandboxConfig.gas.TRX;
  const wallet = await simulate<{ approvedNetworks?: string[] }>(
    options.sandboxUrl,
    'GET',
    `/wallets/${walletId}`,
  );
  return (
    (wallet.approvedNetworks?.includes(TRON) ? 0n : parseAmount(gasCost.topUp)) + parseAmount(gasCost.sweep)
  );
}

/** Sets the gas wallet's balance of a native asset outright; raised, it resumes the stranded Autoswaps. */
async function setGas(
  options: DemoOptions,
  gasWalletId: string,
  asset: string,
  units: bigint,
): Promise<void> {
  await simulate(options.sandboxUrl, 'PUT', `/wallets/${gasWalletId}/balances`, {
    asset,
    amount: formatAmount(units),
  });
}

/** What the gas wallet holds of each native asset, in words. */
async function gasHeld(options: DemoOptions, gasWalletId: string): Promise<string> {
  const wallet = await simulate<{ balances?: Array<{ asset: string; amount: string }> }>(
    options.sandboxUrl,
    'GET',
    `/wallets/${gasWalletId}`,
  );
  return [TRX, ETH].map((asset) => `${formatAmount(nativeBalance(wallet, asset))} ${asset}`).join(' and ');
}

function nativeBalance(
  wallet: { balances?: Array<{ asset: string; amount: string; network?: string }> },
  asset: string,
): bigint {
  const entry = wallet.balances?.find((balance) => balance.asset === asset);
  return entry ? parseAmount(entry.amount) : 0n;
}

/** The quote demo-alice is shown before she deposits: her next deposit's off-ramp compares its execution with it. */
async function showDepositQuote(
  options: DemoOptions,
  heading = '4. A quote, shown to demo-alice for her deposit',
) {
  options.say(`\n== ${heading}`);
  const quote = await options.ramp.showDepositQuote('demo-alice', {
    quoteRequest: {
      direction: 'off-ramp',
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      amountFrom: '100',
    },
  });
  options.say(`    100 USDT (Tron) -> ${quote.targetAmount} MXN, valid until ${quote.expiresAt}`);
}

/** A USDT deposit sent on chain to a deposit wallet's Tron address; answers the deposit's transaction ID. */
async function depositOnChain(options: DemoOptions, address: string, amount: string): Promise<string> {
  const deposit = await simulate<{ transactionId: string }>(options.sandboxUrl, 'POST', '/offramp/deposits', {
    address,
    coin: 'USDT',
    amount,
  });
  options.say(`    deposit ${deposit.transactionId} sent on chain`);
  return deposit.transactionId;
}

async function aliceSellsUsdt(
  options: DemoOptions,
  aliceTron: string,
): Promise<{ result: ScenarioResult; depositId: string }> {
  options.say('\n== 5. demo-alice sells 100 USDT (off-ramp / Autoswap)');
  const depositId = await depositOnChain(options, aliceTron, '100');
  const offRamp = await follow<OffRampView>(
    'off-ramp',
    () => options.ramp.getOffRamp(depositId),
    (state) => OFF_RAMP_ENDED.includes(state.status),
    options,
  );
  const result = scenarioResult(
    'off-ramp demo-alice',
    'settled',
    offRamp?.status,
    offRamp?.fiatAmount
      ? `${offRamp.fiatAmount} ${offRamp.fiatCurrency ?? 'MXN'}, ${againstQuote(offRamp)}, order ${offRamp.orderId ?? '?'}`
      : '',
  );
  return { result, depositId };
}

/** How an execution compares with its quote, in a few words. */
function againstQuote(state: OffRampView): string {
  const amounts = state.amounts;
  if (!amounts?.quoted) return 'no quote';
  return `${amounts.differencePercent ?? '?'}% from the quote (${amounts.difference ?? '?'} MXN)`;
}

/**
 * demo-alice is quoted again, the market moves before she deposits, and the order executes at the new price: the
 * off-ramp settles and names the exception (off_quote: beyond the quote tolerance, RAMP_MARKETS).
 */
async function aliceSellsAfterThePriceMoved(
  options: DemoOptions,
  aliceTron: string,
): Promise<{ result: ScenarioResult; depositId: string }> {
  await showDepositQuote(
    options,
    '7. demo-alice is quoted again, then the USDT price drops before she deposits',
  );
  await simulate(options.sandboxUrl, 'POST', '/prices', { USDT: DEMO_MOVED_PRICE });
  options.say(`    (sandbox) USDT now trades at ${DEMO_MOVED_PRICE} MXN`);
  let depositId = '';
  let offRamp: OffRampView | undefined;
  try {
    depositId = await depositOnChain(options, aliceTron, '100');
    offRamp = await follow<OffRampView>(
      'off-ramp',
      () => options.ramp.getOffRamp(depositId),
      (state) => OFF_RAMP_ENDED.includes(state.status),
      options,
    );
  } finally {
    await simulate(options.sandboxUrl, 'POST', '/prices', { USDT: RATES_MXN_PER_TOKEN.USDT });
  }
  const reasons = offRamp?.exceptions?.map((exception) => exception.reason) ?? [];
  const result = scenarioResult(
    'off-ramp demo-alice off quote',
    'settled + off_quote',
    offRamp && `${offRamp.status}${reasons.length > 0 ? ` + ${reasons.join(', ')}` : ''}`,
    offRamp ? `${offRamp.fiatAmount ?? '?'} MXN, ${againstQuote(offRamp)}` : '',
  );
  return { result, depositId };
}

/**
 * An MXN payment for a reference the client never announced (its backend was down): the on-ramp settles without an
 * end user and waits to be claimed; the client's startOnRamp then claims it for demo-bob (on_ramp.claimed).
 */
async function bobClaimsAfterItSettled(options: DemoOptions, reference: string): Promise<ScenarioResult> {
  const { ramp, say } = options;
  say('\n== 9. An MXN payment nobody announced settles; demo-bob claims it afterwards');
  await simulate(options.sandboxUrl, 'POST', '/onramp/deposits', {
    reference,
    amount: '345.00',
    coinTo: 'USDT',
    chainTo: 'TRX',
  });
  const ended = await follow<OnRampView>(
    'on-ramp',
    () => ramp.getOnRamp(reference),
    (state) => !!state.claimableUntil || state.endUserId !== null,
    options,
  );
  if (!ended?.claimableUntil)
    return scenarioResult('on-ramp claimed late', 'settled + claimed', ended?.status, '');
  say(
    `    settled without an end user; claimable until ${ended.claimableUntil}. The client's backend now claims it:`,
  );
  const claim = await ramp.startOnRamp('demo-bob', reference);
  say(
    `    startOnRamp('demo-bob', '${reference}'): claimed ${claim.claimed}, end user ${claim.state.endUserId}`,
  );
  return scenarioResult(
    'on-ramp claimed late',
    'settled + claimed',
    `${claim.state.status}${claim.claimed && claim.state.endUserId === 'demo-bob' ? ' + claimed' : ''}`,
    `${claim.state.cryptoAmount ?? '?'} ${claim.state.asset ?? 'USDT'} for demo-bob`,
  );
}

async function aliceBuysUsdt(options: DemoOptions, reference: string): Promise<ScenarioResult> {
  const { ramp, say } = options;
  say('\n== 6. demo-alice buys USDT with 1725.00 MXN (on-ramp)');
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
  await simulate(options.sandboxUrl, 'POST', '/onramp/deposits', {
    reference,
    amount: '1725.00',
    coinTo: 'USDT',
    chainTo: 'TRX',
  });
  const onRamp = await follow<OnRampView>(
    'on-ramp',
    () => ramp.getOnRamp(reference),
    (state) => ON_RAMP_ENDED.includes(state.status),
    options,
  );
  return scenarioResult(
    'on-ramp demo-alice',
    'settled',
    onRamp?.status,
    onRamp?.cryptoAmount ? `${onRamp.cryptoAmount} ${onRamp.asset ?? 'USDT'} to the master wallet` : '',
  );
}

async function bobSellsWithoutGas(
  options: DemoOptions,
  bobTron: string,
): Promise<{ result: ScenarioResult; depositId: string }> {
  options.say('\n== 8. demo-bob sells 50 USDT, but the gas wallet cannot pay');
  const depositId = await depositOnChain(options, bobTron, '50');
  // Stuck, and its gas-shortfall incident open in the incident store.
  const incidentOf = async () =>
    (await options.ramp.listAlerts({ kind: 'gas-shortfall', limit: 100 })).data.find(
      (incident) => incident.depositTransactionId === depositId,
    );
  let incident: Awaited<ReturnType<typeof incidentOf>>;
  const offRamp = await follow<OffRampView>(
    'off-ramp',
    () => options.ramp.getOffRamp(depositId),
    async (state) =>
      (state.status === 'stuck' && (incident = await incidentOf()) !== undefined) ||
      OFF_RAMP_ENDED.includes(state.status),
    options,
  );
  const details = incident?.details;
  const result = scenarioResult(
    'off-ramp demo-bob (no gas)',
    'stuck + alert',
    offRamp && `${offRamp.status}${incident ? ' + alert' : ''}`,
    details
      ? `gas ${String(details.asset)} balance ${String(details.balance ?? '?')} < ${String(details.minimum)}`
      : '',
  );
  return { result, depositId };
}

/**
 * The gas wallet refilled for the off-ramps to come: demo-bob's stranded one resumes and settles (its gas-shortfall
 * incident closes with it), so nothing of the story is left to close later, among the integrator's own ramps.
 */
async function gasRefilledForBob(
  options: DemoOptions,
  gasWalletId: string,
  bobWalletId: string,
  depositId: string,
): Promise<ScenarioResult> {
  options.say("\n== 10. The gas wallet is refilled: demo-bob's off-ramp resumes");
  const refill = READY_AUTOSWAPS * autoswapCost(options, 'TRX') + (await autoswapGas(options, bobWalletId));
  await setGas(options, gasWalletId, TRX, refill);
  options.say(
    `    (sandbox) the gas wallet now holds ${formatAmount(refill)} TRX: demo-bob's Autoswap, and ${READY_AUTOSWAPS} more`,
  );
  const offRamp = await follow<OffRampView>(
    'off-ramp',
    () => options.ramp.getOffRamp(depositId),
    (state) => OFF_RAMP_ENDED.includes(state.status),
    options,
  );
  return scenarioResult(
    'off-ramp demo-bob, gas refilled',
    'settled',
    offRamp?.status,
    offRamp?.fiatAmount ? `${offRamp.fiatAmount} ${offRamp.fiatCurrency ?? 'MXN'}` : '',
  );
}

/**
 * Waits until the statement books every ramp of the story (a ramp is booked as its process closes, a moment after
 * its view shows its end) and answers an instant after them all: the integrator's statement starts there.
 */
async function storyBooked(options: DemoOptions, began: string, workflowIds: string[]): Promise<string> {
  const deadline = Date.now() + options.scenarioTimeoutMs;
  for (;;) {
    const to = new Date().toISOString();
    const booked = new Set<string>();
    for await (const item of options.ramp.statement({ from: began, to }))
      if (item.kind === 'row') booked.add(item.row.workflowId);
    const missing = workflowIds.filter((workflowId) => !booked.has(workflowId));
    if (missing.length === 0) return to;
    if (Date.now() >= deadline) {
      options.say(`    not booked after ${options.scenarioTimeoutMs} ms: ${missing.join(', ')}`);
      return to;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 500));
  }
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
