/**
 * Payload encryption end to end: an off-ramp settles with PAYLOAD_ENCRYPTION_KEYS-style keys on the worker, the
 * receiver's and activities' client and the typed client. Its raw history (and its shard routers'), fetched by a client
 * WITHOUT the codec, holds none of the end user ID, the deposit address or the amounts in clear: RampEndUserId is
 * the user's pseudonym and the off-ramp reaches end-user/<id> through an activity (encrypted input), not a signal
 * naming that workflow (docs/architecture.md, Security). The end user ID stays readable only in that user's own
 * workflow ID. The codec server decodes the payloads back, and the typed client still finds the off-ramp by the ID.
 */
import { randomBytes } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '../../helpers/histories';
import { parseEncryptionKeys } from '../../../src/config/encryption';
import { startCodecServer, type RunningCodecServer } from '../../../src/temporal/codec-server';
import { dataConverterFromConfig } from '../../../src/temporal/data-converter';
import { endUserSearchValue } from '../../../src/temporal/end-user-pseudonym';
import { EndUserId } from '../../../src/domain/search-attributes';
import { offRampWorkflowId } from '../../../src/domain/ids';
import { outcomeWebhookId } from '../../../src/domain/outcome-events';
import { connectTestClient } from '../../helpers/temporal';
import {
  depositCrypto,
  endUserWithWallet,
  offRampEnded,
  type RampStack,
  routerIdOf,
  startRampStack,
  waitFor,
} from '../../helpers/ramp-stack';
import { collectPayloads, findInJson } from '../../helpers/history-scan';

/** What the SDK's local-activity marker holds in clear: bookkeeping, no payload of ours. */
const LOCAL_ACTIVITY_MARKER_KEYS = [
  'activity_id',
  'activity_type',
  'attempt',
  'backoff',
  'complete_time',
  'original_schedule_time',
  'seq',
];

const keys = parseEncryptionKeys(
  `k2:${randomBytes(32).toString('base64')},k1:${randomBytes(32).toString('base64')}`,
);
const dataConverter = dataConverterFromConfig({ keys })!;

describe('encrypted payloads (sandbox + receiver + dev server)', () => {
  let client: Client;
  let connection: Connection;
  let plain: { client: Client; connection: Connection };
  let stack: RampStack | undefined;
  let codec: RunningCodecServer;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient({ dataConverter }));
    plain = await connectTestClient();
    codec = await startCodecServer({
      keys,
      codecServer: { host: '127.0.0.1', port: 0, corsOrigins: [], token: undefined, publicUrl: undefined },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await codec.close();
    await plain.connection.close();
    await connection.close();
  });

  test('the raw history of a settled off-ramp holds no end user ID, address or amount in clear, and the codec endpoint decodes them', async () => {
    stack = await startRampStack(client, connection, { dataConverter, encryption: { keys } });
    const user = await endUserWithWallet(stack, `enc-user-${randomBytes(4).toString('hex')}`);
    const amount = '147.318251';
    const depositId = await depositCrypto(stack, user.address, amount);
    const state = await offRampEnded(stack, depositId);
    expect(state.status).toBe('settled');
    const fiatAmount = state.fiatAmount!;
    expect(fiatAmount).toMatch(/^\d{3,}\.\d+$/);

    // Raw histories through a client without the codec: the off-ramp, the routers of its transactions and order.
    const rawHistory = async (workflowId: string) =>
      JSON.parse(historyToJSON(await plain.client.workflow.getHandle(workflowId).fetchHistory())) as unknown;
    const routerIds = new Set([
      routerIdOf(stack, 'transaction', depositId),
      ...[state.sweep, state.gasTopUp, state.orderTransaction].flatMap((tx) =>
        tx ? [routerIdOf(stack!, 'transaction', tx.id)] : [],
      ),
      ...(state.order ? [routerIdOf(stack, 'order', state.order.id)] : []),
    ]);
    const routers: unknown[] = [];
    for (const workflowId of routerIds) {
      // Not every transaction's event necessarily started a router (polling may have found it first).
      const history = await rawHistory(workflowId).catch(() => undefined);
      if (history !== undefined) routers.push(history);
    }
    expect(routers.length).toBeGreaterThan(0);
    const histories = {
      offRamp: await rawHistory(offRampWorkflowId(depositId)),
      endUser: await rawHistory(`end-user/${user.endUserId}`),
    };
    for (const json of [...Object.values(histories), ...routers]) {
      expect(findInJson(json, user.address)).toEqual([]);
      expect(findInJson(json, amount)).toEqual([]);
      expect(findInJson(json, fiatAmount)).toEqual([]);
    }
    // The off-ramp's two outcome events live in the ledger, not in Temporal; the events API lists them by end user.
    const eventIds = [1, 2].map((n) => outcomeWebhookId(offRampWorkflowId(depositId), n));
    const listedEvents = await waitFor('the events listed by end user', async () => {
      const page = await stack!.ramp.listEvents({ endUserId: user.endUserId });
      return eventIds.every((id) => page.data.some((record) => record.webhookId === id))
        ? page.data
        : undefined;
    });
    for (const record of listedEvents.filter((listed) => eventIds.includes(listed.webhookId)))
      expect(record.event.data).toMatchObject({ endUserId: user.endUserId });
    // No workflow of this worker is named after the end user or one of its events, but the user's own.
    const named: string[] = [];
    for await (const execution of plain.client.workflow.list({
      query: `TaskQueue = '${stack.worker.taskQueue}'`,
    }))
      if (execution.workflowId.includes(user.endUserId)) named.push(execution.workflowId);
    expect(named).toEqual([`end-user/${user.endUserId}`]);
    // The end user ID: nowhere in the off-ramp's or its routers' histories, not even as a search attribute or a
    // workflow ID; in the user's own history only as its workflow ID (end-user/<id>).
    for (const json of [histories.offRamp, ...routers]) expect(findInJson(json, user.endUserId)).toEqual([]);
    for (const place of findInJson(histories.endUser, user.endUserId)) {
      expect(place.path).toMatch(/workflowExecutionStartedEventAttributes\.workflowId$/);
    }
    // RampEndUserId holds the pseudonym, and the typed client still finds the off-ramp by the end user ID.
    const pseudonym = endUserSearchValue(user.endUserId, { keys });
    expect(pseudonym).toMatch(/^u-[0-9a-f]{32}$/);
    expect(findInJson(histories.offRamp, pseudonym).length).toBeGreaterThan(0);
    expect(
      (
        await plain.client.workflow.getHandle(offRampWorkflowId(depositId)).describe()
      ).typedSearchAttributes.get(EndUserId),
    ).toBe(pseudonym);
    const listed = await waitFor('the off-ramp listed by end user', async () => {
      const found = await stack!.ramp.listProcesses({ endUserId: user.endUserId, direction: 'off-ramp' });
      return found.find((entry) => entry.depositTransactionId === depositId && entry.status === 'settled');
    });
    expect(listed).toMatchObject({ workflowId: offRampWorkflowId(depositId), endUserId: user.endUserId });
    // The paged list searches for the pseudonym the same way.
    const page = await stack.ramp.listRamps({ endUserId: user.endUserId, direction: 'off-ramp' });
    expect(page.data).toEqual([
      expect.objectContaining({ depositTransactionId: depositId, endUserId: user.endUserId }),
    ]);
    // The off-ramp told end-user/<id> about itself (through the attributeOffRamp activity).
    await waitFor('the end user to list the off-ramp', async () =>
      (await stack!.endUserState(user.endUserId)).recentOffRamps.includes(depositId) ? true : undefined,
    );

    const payloads = [histories.offRamp, histories.endUser].flatMap((json) => collectPayloads(json));
    const encrypted = payloads.filter(
      (payload) => Buffer.from(payload.metadata.encoding!, 'base64').toString() === 'binary/encrypted',
    );
    expect(encrypted.length).toBeGreaterThan(3);
    // Every payload not encrypted is a search attribute value (plain by design: it carries its type), or what the SDK
    // writes into its markers without the codec: a patch's ID, or the end user's ledger write's bookkeeping as a local
    // activity (its name, attempt and times; its result is encrypted like any other).
    for (const payload of payloads.filter((p) => !encrypted.includes(p))) {
      const type = Buffer.from(payload.metadata.type ?? '', 'base64').toString();
      if (type === '') {
        const data = JSON.parse(Buffer.from(payload.data ?? '', 'base64').toString()) as Record<
          string,
          unknown
        >;
        if ('activity_type' in data) {
          expect(Object.keys(data).sort()).toEqual(LOCAL_ACTIVITY_MARKER_KEYS);
          expect(data.activity_type).toBe('recordEndUser');
        } else
          expect(data).toEqual({
            id: expect.stringMatching(/^[a-z-]+$/),
            deprecated: false,
          });
      } else {
        expect(type).toMatch(/^(Keyword|KeywordList|Text|Int|Double|Bool|Datetime)$/);
      }
    }

    // The codec endpoint (the Web UI's JSON shape) decodes them.
    const response = await fetch(`${codec.endpoint}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'ramp-orchestrator-test' },
      body: JSON.stringify({ payloads: encrypted }),
    });
    expect(response.status).toBe(200);
    const decoded = (await response.json()) as {
      payloads: Array<{ metadata: Record<string, string>; data: string }>;
    };
    expect(decoded.payloads).toHaveLength(encrypted.length);
    const clear = decoded.payloads
      .map((payload) => Buffer.from(payload.data, 'base64').toString('utf8'))
      .join('\n');
    expect(clear).toContain(user.address);
    expect(clear).toContain(amount);
    expect(clear).toContain(fiatAmount);
    expect(clear).toContain(user.endUserId);
    // json/plain, or binary/null for an activity that answers nothing.
    expect(
      decoded.payloads.every((payload) =>
        ['json/plain', 'binary/null'].includes(Buffer.from(payload.metadata.encoding!, 'base64').toString()),
      ),
    ).toBe(true);

    // The typed client (with the codec) still reads everything.
    expect((await stack.ramp.getOffRamp(depositId)).fiatAmount).toBe(fiatAmount);
  });
});
