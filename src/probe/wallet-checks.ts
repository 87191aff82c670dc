/**
 * The account's wallets: GetWalletAddresses of each wallet given (and of the probe's own wallet under
 * --allow-writes, created once with a label that says what it is), its answer's fields and its paging.
 */
import { z } from 'zod';
import { NETWORKS } from '../domain/vocabulary';
import { balance, listEnvelope, wallet, walletAddress, walletAddressesPagination } from '../operator/schemas';
import { callRoute, describeAnswer, type ProbeContext } from './context';
import type { PageObservation } from './paging';
import { isSuccess } from './wire';

/** The label of the one wallet the probe creates under --allow-writes. */
export const PROBE_WALLET_LABEL = 'ramp-orchestrator/probe';

const addressesPage = listEnvelope(
  walletAddress.extend({ balances: z.array(z.unknown()) }),
  walletAddressesPagination,
);

const paginationOf = (body: unknown) => {
  const parsed = walletAddressesPagination.safeParse(
    (body as { pagination?: unknown } | undefined)?.pagination,
  );
  return parsed.success ? parsed.data : undefined;
};

const issuesOf = (error: z.ZodError) =>
  error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');

/** Reads the wallets; answers the IDs read and what their paging showed. */
export async function checkWallets(
  ctx: ProbeContext,
): Promise<{ walletIds: string[]; observations: PageObservation[] }> {
  const { profile, allowWrites } = ctx.options;
  const { report } = ctx;
  const walletIds = [...ctx.options.wallets];
  if (allowWrites) {
    const created = await callRoute(ctx, 'createWallet', {
      body: { networks: Object.values(NETWORKS), externalUserId: PROBE_WALLET_LABEL },
    });
    const parsed = wallet.safeParse((created.body as { data?: unknown } | undefined)?.data);
    report.verdict(
      'routes.createWallet',
      `CreateWallet answers the wallet (${PROBE_WALLET_LABEL} created, no way to delete it)`,
      isSuccess(created) && parsed.success,
      parsed.success ? `${describeAnswer(created)}, wallet ${parsed.data.id}` : describeAnswer(created),
    );
    if (parsed.success) walletIds.push(parsed.data.id);
  }
  const addressesAssumption = `GetWalletAddresses answers ${profile.routes.getWalletAddresses} with the spec's entries and pagination`;
  const balanceAssumption = 'A balance entry is { asset, amount } with a decimal-string amount';
  if (walletIds.length === 0) {
    const toCheck =
      '--wallet <id>,<id> (npm run account:setup prints the master and gas wallets) or --allow-writes';
    report.notCheckable('routes.getWalletAddresses', addressesAssumption, toCheck);
    report.notCheckable('src/operator/schemas.ts (balance)', balanceAssumption, toCheck);
    return { walletIds, observations: [] };
  }

  const { pageParam, limitParam, maxLimit } = profile.paging;
  const observations: PageObservation[] = [];
  const problems: string[] = [];
  const balances: unknown[] = [];
  for (const id of walletIds) {
    const pageTwo = await callRoute(ctx, 'getWalletAddresses', {
      params: { id },
      query: { [pageParam]: 2, [limitParam]: 1 },
    });
    const whole = await callRoute(ctx, 'getWalletAddresses', { params: { id } });
    const largest = await callRoute(ctx, 'getWalletAddresses', {
      params: { id },
      query: { [pageParam]: 1, [limitParam]: maxLimit },
    });
    const parsed = addressesPage.safeParse(whole.body);
    if (!isSuccess(whole)) problems.push(`${id}: ${describeAnswer(whole)}`);
    else if (!parsed.success) problems.push(`${id}: ${issuesOf(parsed.error)}`);
    else balances.push(...parsed.data.data.flatMap((entry) => entry.balances));
    observations.push({
      list: `wallet ${id.slice(0, 8)} addresses`,
      page: paginationOf(pageTwo.body)?.pageNumber,
      limit: paginationOf(pageTwo.body)?.limit,
      defaultLimit: paginationOf(whole.body)?.limit,
      maxLimitTaken: isSuccess(largest),
      maxLimitAnswered: paginationOf(largest.body)?.limit,
    });
  }
  report.verdict(
    'routes.getWalletAddresses',
    addressesAssumption,
    problems.length === 0,
    problems.length === 0 ? `${walletIds.length} wallet(s) read` : problems.join('; '),
  );
  if (balances.length === 0)
    report.notCheckable(
      'src/operator/schemas.ts (balance)',
      balanceAssumption,
      'a wallet given that holds funds',
    );
  else {
    const wrong = balances.filter((entry) => !balance.safeParse(entry).success);
    report.verdict(
      'src/operator/schemas.ts (balance)',
      balanceAssumption,
      wrong.length === 0,
      wrong.length === 0
        ? `${balances.length} balance entries`
        : `${wrong.length} of ${balances.length} differ`,
    );
  }
  return { walletIds, observations };
}
