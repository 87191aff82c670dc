/**
 * The bench's floor workflows do what the bench says they do, on the run's dev server and a sandbox: a wallet is
 * created once at the operator however many callers ask, with its addresses read, by a scheduled or a local
 * activity; a process closes only once it has applied as many distinct signals as it expects.
 */
import type { Client } from '@temporalio/client';
import { floorWorkflowId, type FloorWorker, startFloorWorker } from '../../../bench/floor/worker';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { newClient, startTestSandbox } from '../../helpers/operator';
import { connectTestClient, testServer } from '../../helpers/temporal';

jest.setTimeout(120_000);

const LABEL = 'test';

let sandbox: RunningSandbox;
let floor: FloorWorker;
let client: Client;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const { address, namespace } = testServer();
  floor = await startFloorWorker({
    address,
    namespace,
    client: (client = (await connectTestClient()).client),
    tuning: undefined,
    operator: newClient(sandbox),
    label: LABEL,
  });
});

afterAll(async () => {
  await floor?.close();
  await sandbox?.close();
});

const createWalletCalls = (label: string) =>
  sandbox.calls().filter((call) => call.route === 'createWallet' && call.externalUserId === label);

test.each([
  ['a scheduled activity', false],
  ['a local activity', true],
])('the floor wallet is created once, by %s, and answers every caller', async (_how, local) => {
  const label = `floor-${local ? 'local' : 'scheduled'}`;
  const answers = await Promise.all(Array.from({ length: 5 }, () => floor.wallet(label, local)));
  expect(new Set(answers.map((answer) => answer.walletId)).size).toBe(1);
  expect(answers[0]!.addresses).toBeGreaterThan(0);
  expect(sandbox.state.wallets.has(answers[0]!.walletId)).toBe(true);
  expect(createWalletCalls(label)).toHaveLength(1);
  const history = await client.workflow.getHandle(floorWorkflowId(LABEL, 'wallet', label)).fetchHistory();
  const kinds = new Set((history.events ?? []).map((event) => event.attributes));
  expect(kinds.has('markerRecordedEventAttributes')).toBe(local);
  expect(kinds.has('activityTaskScheduledEventAttributes')).toBe(!local);
});

test('a floor process closes once it has applied every signal it expects, a repeated one counted once', async () => {
  await floor.event('three', 3, 0);
  await floor.event('three', 3, 1);
  await floor.event('three', 3, 1);
  expect(await floor.seen('three')).toBe(2);
  await floor.event('three', 3, 2);
  await expect(floor.closed('three')).resolves.toBe(3);
});
