/**
 * `npm run account:setup`: runs (or re-checks) the account setup through the account-setup workflow and prints
 * the addresses to hand to the account contact and what the operator still needs. Running it again creates
 * nothing new and prints the same wallets.
 *
 * Connects to TEMPORAL_ADDRESS, or the local dev server (127.0.0.1:7233 by default); a worker must be running
 * (`npm start`).
 */
import { RampClient } from '../client/ramp-client';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import type { AccountSetupResult } from '../../workflows/account-setup/types';

/** The longest the command waits for the account setup; the workflow goes on without it, and a rerun picks it up. */
const ACCOUNT_SETUP_TIMEOUT_MS = 5 * 60_000;
/** When to ask whether a worker runs: an account setup that has not answered by then is most likely not picked up. */
const WORKER_HINT_AFTER_MS = 10_000;

export function formatAccountSetup(result: AccountSetupResult): string {
  const lines: string[] = [];
  lines.push('Account setup: ready');
  lines.push('');
  lines.push('Wallets to hand to the account contact for whitelisting:');
  for (const wallet of [result.masterWallet, result.gasWallet]) {
    lines.push(
      `  ${wallet.role === 'master' ? 'Master wallet' : 'Gas wallet'} ${wallet.walletId} (${wallet.externalUserId})`,
    );
    for (const entry of wallet.addresses) lines.push(`    ${entry.network.padEnd(28)} ${entry.address}`);
  }
  lines.push('');
  lines.push('Webhook recipients (our receiver):');
  for (const recipient of [result.recipients.transaction, result.recipients.order]) {
    lines.push(`  ${recipient.kind.padEnd(12)} ${recipient.id}  ${recipient.redactedUrl}`);
  }
  lines.push('');
  lines.push('Next steps with the operator:');
  for (const step of result.nextSteps) lines.push(`  - ${step}`);
  return lines.join('\n');
}

const COMMAND = defineCommand({
  usage: 'npm run account:setup --',
  summary:
    'Runs (or re-checks) the account setup through the account-setup workflow and prints the wallets to hand to the account ' +
    'contact and what the operator still needs. Running it again creates nothing new. A worker must be running.',
  flags: {},
  notes: ['Waits at most 5 minutes; after 10 s it asks whether a worker runs.'],
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const client = await RampClient.connect({ env: process.env });
  const hint = setTimeout(() => {
    process.stderr.write('Still waiting for the account-setup workflow: is a worker running (npm start)?\n');
  }, WORKER_HINT_AFTER_MS);
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      client.setupAccount(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${ACCOUNT_SETUP_TIMEOUT_MS / 1000} s`)),
          ACCOUNT_SETUP_TIMEOUT_MS,
        );
      }),
    ]);
    process.stdout.write(`${formatAccountSetup(result)}\n`);
  } finally {
    clearTimeout(hint);
    clearTimeout(timer);
    await client.close();
  }
}

if (require.main === module) runMain(main, { failurePrefix: 'account:setup failed: ' });
