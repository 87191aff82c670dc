/**
 * `npm run operator:probe` without its command line: logs in, then checks every assumption it can reach, each on
 * its own, in the order a session needs them. Nothing is written to the operator unless `allowWrites`.
 */
import { checkDeliveries } from './delivery-checks';
import type { ProbeContext, ProbeOptions } from './context';
import { checkLogin } from './login';
import { reportPaging } from './paging';
import { checkRecipients } from './recipient-checks';
import { ProbeReport } from './report';
import { checkResources } from './resource-checks';
import { SampleStore } from './samples';
import { checkCsrfHeaders, checkErrors } from './session-checks';
import { checkWallets } from './wallet-checks';
import { Wire } from './wire';

export interface ProbeResult {
  report: ProbeReport;
  samples: SampleStore;
}

/** The assumptions that need a session, reported not checkable when there is none. */
const NEED_A_SESSION = [
  'csrfHeaderNames',
  'errors.statuses.unauthenticated',
  'errors.statuses.csrf',
  'errors.statuses.notFound',
  'errors.body',
  'paging.pageParam',
  'paging.limitParam',
  'routes.getWalletAddresses',
  'routes.listWalletTransactions',
  'routes.getTransaction',
  'routes.getOrder',
  'vocabulary.transactionKinds',
  'vocabulary.transactionStatuses',
  'vocabulary.orderStatuses',
  'vocabulary.orderDirections',
  'links.transaction.walletId',
  'links.transaction.relatedTransactionId',
  'links.transaction.orderId',
  'links.order.transactionId',
];

export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
  const samples = new SampleStore();
  const report = new ProbeReport();
  const ctx: ProbeContext = { options, report, wire: new Wire(options.baseUrl, options.timeoutMs, samples) };

  const login = await checkLogin(ctx);
  const session = login ? await checkCsrfHeaders(ctx, login) : undefined;
  if (!session) {
    const why = login
      ? 'a CSRF header name the operator accepts'
      : 'a login (fix the rows above, or give --login-profile with a login known to work)';
    for (const key of NEED_A_SESSION.slice(login ? 1 : 0)) report.notCheckable(key, 'needs a session', why);
  } else {
    ctx.session = session;
    await checkErrors(ctx, session);
    const wallets = await checkWallets(ctx);
    const recipients = await checkRecipients(ctx);
    reportPaging(ctx, [...wallets.observations, ...recipients]);
    await checkResources(ctx, wallets.walletIds);
  }
  await checkDeliveries(ctx);
  return { report, samples };
}
