/**
 * A runnable example of the typed client, as a client's backend would use it. With `npm start` running in
 * another terminal: `npm run example:client`.
 */
import { RampClient } from '../client/ramp-client';
import { runMain } from './run';

async function main(): Promise<void> {
  const ramp = await RampClient.connect(); // TEMPORAL_ADDRESS, or the local dev server
  try {
    const wallet = await ramp.ensureDepositWallet('example-user-1');
    console.log('Deposit addresses of example-user-1:', wallet.addresses);

    const quote = await ramp.quote({
      direction: 'off-ramp',
      coinFrom: 'USDT',
      chainFrom: 'TRX',
      coinTo: 'MXN',
      amountFrom: '250',
    });
    console.log(
      `250 USDT -> ${quote.targetAmount} MXN until ${quote.expiresAt} (valid now: ${ramp.isQuoteValid(quote)})`,
    );

    const processes = await ramp.listProcesses({ endUserId: 'example-user-1' });
    console.log(`example-user-1 has ${processes.length} ramp process(es)`);
  } finally {
    await ramp.close();
  }
}

runMain(main);
