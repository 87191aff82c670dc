/**
 * `npm run account:setup`: runs (or re-checks) the account setup through the account-setup workflow and prints
 * the addresses to hand to the account contact and what the operator still needs. Running it again creates
 * nothing new and prints the same wallets.
 *
 * Connects to TEMPORAL_ADDRESS, or the local dev server (127.0.0.1:7233 by default); a worker must be running
 * (`npm start`). ACCOUNT_SETUP_TIMEOUT (default 5m) bounds the wait.
 */
import { z } from 'zod';
import { RampClient } from '../client/ramp-client';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { durationMs } from '../config/duration';
import { parseSection } from '../config/env';
import type { AccountSetupResult } from '../../workflows/account-setup/types';

const commandEnv = z.object({
  ACCOUNT_SETUP_TIMEOUT: durationMs('5m'),
  ACCOUNT_SETUP_HINT_AFTER: durationMs('10s'),
});

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
  notes: [
    'ACCOUNT_SETUP_TIMEOUT (default 5m) bounds the wait; ACCOUNT_SETUP_HINT_AFTER (default 10s) when to hint at a missing worker.',
  ],
});

async function main(): Promise<void> {
  commandFlags(COMMAND);
  const env = process.env;
  const { ACCOUNT_SETUP_TIMEOUT: timeoutMs, ACCOUNT_SETUP_HINT_AFTER: hintMs } = parseSection(
    'account setup',
    commandEnv,
    env,
  );
  const client = await RampClient.connect({ env });
  const hint = setTimeout(() => {
    process.stderr.write('Still waiting for the account-setup workflow: is a worker running (npm start)?\n');
  }, hintMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      client.setupAccount(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${timeoutMs} ms (ACCOUNT_SETUP_TIMEOUT)`)),
          timeoutMs,
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
