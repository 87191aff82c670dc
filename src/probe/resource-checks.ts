/**
 * Transactions and orders: a wallet's transactions, Get Transaction and Get Order (by the IDs given, those the
 * wallets list, and the orders those transactions link to), and in them every word and field we rely on: the type
 * and subtype of each kind, the statuses, the order's direction, the fields that link resources, and the fields the
 * processes read. Each is checked on the answers as they came, so one difference does not hide another.
 */
import type { TransactionKindName } from '../domain/operator-profile';
import { transactionKindOf } from '../operator/profile-schemas';
import { order as ourOrder, transaction as ourTransaction } from '../operator/schemas';
import { callRoute, describeAnswer, type ProbeContext } from './context';
import { isSuccess } from './wire';

/** Enough answers to see every kind of an off-ramp and an on-ramp, without reading a whole account. */
const MAX_READS = 24;

type Raw = Record<string, unknown>;

const objectsIn = (value: unknown): Raw[] =>
  Array.isArray(value) ? value.filter((item): item is Raw => typeof item === 'object' && item !== null) : [];
const dataOf = (body: unknown): unknown => (body as { data?: unknown } | undefined)?.data;
const unique = <T>(values: readonly T[]) => [...new Set(values)];
const counted = (values: readonly string[]) =>
  unique(values)
    .map((value) => `${value} x${values.filter((other) => other === value).length}`)
    .join(', ');
const present = (raw: Raw, field: string) => typeof raw[field] === 'string' && raw[field] !== '';
const fieldsSeen = (raws: readonly Raw[]) => unique(raws.flatMap((raw) => Object.keys(raw))).join(', ');

/** The fields the processes read beside the profile's: their rules, from our schemas. */
const transactionFields = ourTransaction
  .pick({ id: true, type: true, network: true, asset: true, amount: true, createdAt: true })
  .loose();
const orderFields = ourOrder
  .pick({ id: true, orderReference: true, coinFrom: true, coinTo: true, amountFrom: true, amountTo: true })
  .loose();

/** A link field: present where the kinds that must carry it were seen, else at least somewhere. */
function reportLink(
  ctx: ProbeContext,
  key: string,
  assumption: string,
  field: string,
  raws: readonly Raw[],
  mustCarry: readonly Raw[],
  whatCarries: string,
): void {
  if (raws.length === 0) return ctx.report.notCheckable(key, assumption, whatCarries);
  if (mustCarry.length > 0) {
    const missing = mustCarry.filter((raw) => !present(raw, field));
    return ctx.report.verdict(
      key,
      assumption,
      missing.length === 0,
      missing.length === 0
        ? `carried by all ${mustCarry.length}`
        : `missing on ${missing.length} of ${mustCarry.length}; their fields: ${fieldsSeen(missing)}`,
    );
  }
  if (raws.some((raw) => Object.hasOwn(raw, field)))
    return ctx.report.notCheckable(key, assumption, whatCarries);
  ctx.report.contradicted(
    key,
    assumption,
    `no answer has a field ${field}; fields seen: ${fieldsSeen(raws)}`,
  );
}

async function readAll(
  ctx: ProbeContext,
  operation: 'getTransaction' | 'getOrder',
  ids: readonly string[],
): Promise<{ raws: Raw[]; problems: string[] }> {
  const raws: Raw[] = [];
  const problems: string[] = [];
  for (const id of ids.slice(0, MAX_READS)) {
    const answer = await callRoute(ctx, operation, { params: { id } });
    const data = dataOf(answer.body);
    if (isSuccess(answer) && typeof data === 'object' && data !== null) raws.push(data as Raw);
    else problems.push(`${id}: ${describeAnswer(answer)}`);
  }
  return { raws, problems };
}

export async function checkResources(ctx: ProbeContext, walletIds: readonly string[]): Promise<void> {
  const { options } = ctx;
  const { profile } = options;
  const { report } = ctx;
  const { links } = profile;
  const runFirst =
    'an off-ramp and an on-ramp settled on this account, then --wallet <ids>, or --transaction <ids>';

  // A wallet's transactions.
  const listed: Raw[] = [];
  const listAssumption = `A wallet's transactions are listed at ${profile.routes.listWalletTransactions}`;
  if (walletIds.length === 0)
    report.notCheckable('routes.listWalletTransactions', listAssumption, '--wallet <id> or --allow-writes');
  else {
    const problems: string[] = [];
    for (const id of walletIds) {
      const answer = await callRoute(ctx, 'listWalletTransactions', { params: { id } });
      if (isSuccess(answer) && Array.isArray(dataOf(answer.body)))
        listed.push(...objectsIn(dataOf(answer.body)));
      else problems.push(describeAnswer(answer));
    }
    report.verdict(
      'routes.listWalletTransactions',
      listAssumption,
      problems.length === 0,
      problems.length === 0
        ? `${listed.length} transaction(s) in ${walletIds.length} wallet(s)`
        : problems.join('; '),
    );
  }

  // Get Transaction.
  const ids = unique([...options.transactions, ...listed.map((raw) => String(raw.id))]);
  const fetched = await readAll(ctx, 'getTransaction', ids);
  const getAssumption = `Get Transaction is ${profile.routes.getTransaction}`;
  if (ids.length === 0) report.notCheckable('routes.getTransaction', getAssumption, runFirst);
  else
    report.verdict(
      'routes.getTransaction',
      getAssumption,
      fetched.problems.length === 0,
      fetched.problems.length === 0 ? `${fetched.raws.length} read` : fetched.problems.slice(0, 3).join('; '),
    );
  const byId = new Map<string, Raw>();
  for (const raw of [...listed, ...fetched.raws]) byId.set(String(raw.id), raw);
  const transactions = [...byId.values()];
  checkTransactionWords(ctx, transactions, runFirst);

  // Get Order, by the IDs given and those the transactions link to.
  const linkedOrders = transactions
    .map((raw) => raw[links.transaction.orderId])
    .filter((value): value is string => typeof value === 'string' && value !== '');
  const orderIds = unique([...options.orders, ...linkedOrders]);
  const orders = await readAll(ctx, 'getOrder', orderIds);
  const orderAssumption = `Get Order is ${profile.routes.getOrder}`;
  if (orderIds.length === 0)
    report.notCheckable('routes.getOrder', orderAssumption, `${runFirst}, or --order <ids>`);
  else
    report.verdict(
      'routes.getOrder',
      orderAssumption,
      orders.problems.length === 0,
      orders.problems.length === 0 ? `${orders.raws.length} read` : orders.problems.slice(0, 3).join('; '),
    );
  checkOrderWords(ctx, orders.raws, `${runFirst}, or --order <ids>`);
}

function checkTransactionWords(ctx: ProbeContext, raws: readonly Raw[], runFirst: string): void {
  const { profile } = ctx.options;
  const { report } = ctx;
  const { transactionKinds, transactionStatuses } = profile.vocabulary;
  const kindOf = (raw: Raw) =>
    transactionKindOf(profile, String(raw.type), raw.subtype as string | null | undefined);
  const ofKind = (kinds: readonly TransactionKindName[]) =>
    raws.filter((raw) => kinds.includes(kindOf(raw) as TransactionKindName));

  for (const [kind, words] of Object.entries(transactionKinds) as Array<
    [TransactionKindName, { type: string; subtype: string | null }]
  >) {
    const key = `vocabulary.transactionKinds.${kind}`;
    const assumption = `The ${kind} kind of transaction has type ${words.type} and subtype ${words.subtype ?? '(any)'}`;
    const seen = ofKind([kind]).length;
    if (seen > 0) report.confirmed(key, assumption, `${seen} of them`);
    else report.notCheckable(key, assumption, runFirst);
  }
  const pair = (raw: Raw) =>
    `${String(raw.type)}/${typeof raw.subtype === 'string' ? raw.subtype : JSON.stringify(raw.subtype ?? null)}`;
  const strangers = raws.filter((raw) => kindOf(raw) === undefined);
  const kindsAssumption = 'Every transaction is one of the kinds above (by its type and subtype)';
  if (raws.length === 0) report.notCheckable('vocabulary.transactionKinds', kindsAssumption, runFirst);
  else
    report.verdict(
      'vocabulary.transactionKinds',
      kindsAssumption,
      strangers.length === 0,
      strangers.length === 0
        ? `${raws.length} transactions`
        : `not a kind of ours: ${counted(strangers.map(pair))}`,
    );

  const words = Object.values(transactionStatuses);
  const statuses = raws.map((raw) => String(raw.status));
  const strangeStatuses = statuses.filter((status) => !words.includes(status));
  const statusAssumption = `Transaction statuses are ${words.join(', ')}`;
  if (raws.length === 0) report.notCheckable('vocabulary.transactionStatuses', statusAssumption, runFirst);
  else
    report.verdict(
      'vocabulary.transactionStatuses',
      statusAssumption,
      strangeStatuses.length === 0,
      strangeStatuses.length === 0 ? counted(statuses) : `not ours: ${counted(strangeStatuses)}`,
    );

  const { walletId, relatedTransactionId, orderId } = profile.links.transaction;
  reportLink(
    ctx,
    'links.transaction.walletId',
    `A transaction names its wallet in ${walletId}`,
    walletId,
    raws,
    raws,
    runFirst,
  );
  reportLink(
    ctx,
    'links.transaction.relatedTransactionId',
    `A gas top-up, a sweep and an AutoSwap transaction name their deposit in ${relatedTransactionId}`,
    relatedTransactionId,
    raws,
    ofKind(['gasTopUp', 'sweep', 'orderSettlement']),
    `${runFirst} (a settled off-ramp)`,
  );
  reportLink(
    ctx,
    'links.transaction.orderId',
    `An AutoSwap transaction names its order in ${orderId}`,
    orderId,
    raws,
    ofKind(['orderSettlement']),
    `${runFirst} (a settled off-ramp)`,
  );

  const fieldsAssumption = 'Transactions carry network, asset and a decimal-string amount';
  if (raws.length === 0)
    report.notCheckable('src/operator/schemas.ts (transaction)', fieldsAssumption, runFirst);
  else {
    const wrong = raws.filter((raw) => !transactionFields.safeParse(raw).success);
    report.verdict(
      'src/operator/schemas.ts (transaction)',
      fieldsAssumption,
      wrong.length === 0,
      wrong.length === 0 ? `${raws.length} transactions` : `${wrong.length} of ${raws.length} differ`,
    );
  }
}

function checkOrderWords(ctx: ProbeContext, raws: readonly Raw[], toCheck: string): void {
  const { profile } = ctx.options;
  const { report } = ctx;
  const { orderStatuses, orderDirections } = profile.vocabulary;
  const statusWords = Object.values(orderStatuses);
  const statuses = raws.map((raw) => String(raw.status));
  const strange = statuses.filter((status) => !statusWords.includes(status));
  const statusAssumption = `Order statuses are ${statusWords.join(', ')}`;
  if (raws.length === 0) report.notCheckable('vocabulary.orderStatuses', statusAssumption, toCheck);
  else
    report.verdict(
      'vocabulary.orderStatuses',
      statusAssumption,
      strange.length === 0,
      strange.length === 0 ? counted(statuses) : `not ours: ${counted(strange)}`,
    );

  const directionWords = Object.values(orderDirections);
  const directions = raws.filter((raw) => raw.direction !== undefined).map((raw) => String(raw.direction));
  const strangeDirections = directions.filter((direction) => !directionWords.includes(direction));
  const directionAssumption = `An order's direction is ${directionWords.join(' or ')}`;
  if (directions.length === 0)
    report.notCheckable('vocabulary.orderDirections', directionAssumption, toCheck);
  else
    report.verdict(
      'vocabulary.orderDirections',
      directionAssumption,
      strangeDirections.length === 0,
      strangeDirections.length === 0
        ? `seen: ${counted(directions)}`
        : `not ours: ${counted(strangeDirections)}`,
    );

  const { transactionId } = profile.links.order;
  reportLink(
    ctx,
    'links.order.transactionId',
    `An executed order names its transaction in ${transactionId}`,
    transactionId,
    raws,
    raws.filter((raw) => raw.status === orderStatuses.executed),
    `${toCheck} (an executed order)`,
  );

  const fieldsAssumption = 'Orders carry their reference, currencies and decimal-string amounts';
  if (raws.length === 0) report.notCheckable('src/operator/schemas.ts (order)', fieldsAssumption, toCheck);
  else {
    const wrong = raws.filter((raw) => !orderFields.safeParse(raw).success);
    report.verdict(
      'src/operator/schemas.ts (order)',
      fieldsAssumption,
      wrong.length === 0,
      wrong.length === 0 ? `${raws.length} orders` : `${wrong.length} of ${raws.length} differ`,
    );
  }
}
