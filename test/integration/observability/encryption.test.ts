/**
 * Payload encryption end to end: an off-ramp settles with PAYLOAD_ENCRYPTION_KEYS-style keys on the worker, the
 * receiver's and activities' client and the typed client. Its raw history, fetched by a client WITHOUT the codec,
 * holds none of the deposit address or amounts in clear; the end user ID appears only where we accept it in clear
 * (the RampEndUserId search attribute and the end-user/<id> workflow ID the off-ramp signals: identifiers support
 * staff search by; docs/architecture-security.md). The codec server decodes the payloads back.
 */
import { randomBytes } from 'node:crypto';
import type { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { parseEncryptionKeys } from '../../../src/config/encryption';
import { startCodecServer, type RunningCodecServer } from '../../../src/temporal/codec-server';
import { dataConverterFromConfig } from '../../../src/temporal/data-converter';
import { offRampWorkflowId } from '../../../workflows/ramp-types';
import { connectTestClient } from '../../helpers/temporal';
import { depositCrypto, endUserWithWallet, offRampEnded, type RampStack, startRampStack } from '../ramps/harness';
import { collectPayloads, findInJson } from './history-scan';

const keys = parseEncryptionKeys(`k2:${randomBytes(32).toString('base64')},k1:${randomBytes(32).toString('base64')}`);
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
    codec = await startCodecServer({ keys, codecServer: { host: '127.0.0.1', port: 0, corsOrigins: [], token: undefined, publicUrl: undefined } });
  });
  afterAll(async () => {
    await stack?.close();
    await codec.close();
    await plain.connection.close();
    await connection.close();
  });

  test('the raw history of a settled off-ramp holds no address or amount in clear, and the codec endpoint decodes them', async () => {
    stack = await startRampStack(client, connection, { dataConverter });
    const user = await endUserWithWallet(stack, `enc-user-${randomBytes(4).toString('hex')}`);
    const amount = '147.318251';
    const depositId = await depositCrypto(stack, user.address, amount);
    const state = await offRampEnded(stack, depositId);
    expect(state.status).toBe('settled');
    const fiatAmount = state.fiatAmount!;
    expect(fiatAmount).toMatch(/^\d{3,}\.\d+$/);

    // Raw histories through a client without the codec: the off-ramp, its deposit's router, the end user's process.
    const rawHistory = async (workflowId: string) =>
      JSON.parse(historyToJSON(await plain.client.workflow.getHandle(workflowId).fetchHistory())) as unknown;
    const histories = {
      offRamp: await rawHistory(offRampWorkflowId(depositId)),
      router: await rawHistory(`transaction/${depositId}`),
      endUser: await rawHistory(`end-user/${user.endUserId}`),
    };
    for (const json of Object.values(histories)) {
      expect(findInJson(json, user.address)).toEqual([]);
      expect(findInJson(json, amount)).toEqual([]);
      expect(findInJson(json, fiatAmount)).toEqual([]);
      // The end user ID: only in the identifier fields we keep in clear (search attribute, end-user/<id> workflow
      // IDs), never in a payload.
      for (const place of findInJson(json, user.endUserId)) {
        expect(place.path).toMatch(
          /searchAttributes\.indexedFields\.RampEndUserId\.data$|(signalExternalWorkflowExecutionInitiated|externalWorkflowExecutionSignaled)EventAttributes\.workflowExecution\.workflowId$|workflowExecutionStartedEventAttributes\.workflowId$/,
        );
      }
    }
    expect(findInJson(histories.offRamp, user.endUserId).length).toBeGreaterThan(0);
    const payloads = [histories.offRamp, histories.endUser].flatMap((json) => collectPayloads(json));
    const encrypted = payloads.filter((payload) => Buffer.from(payload.metadata.encoding!, 'base64').toString() === 'binary/encrypted');
    expect(encrypted.length).toBeGreaterThan(3);
    // Every payload not encrypted is a search attribute value (plain by design: it carries its type).
    for (const payload of payloads.filter((p) => !encrypted.includes(p))) {
      expect(Buffer.from(payload.metadata.type ?? '', 'base64').toString()).toMatch(/^(Keyword|KeywordList|Text|Int|Double|Bool|Datetime)$/);
    }

    // The codec endpoint (the Web UI's JSON shape) decodes them.
    const response = await fetch(`${codec.endpoint}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'ramp-orchestrator-test' },
      body: JSON.stringify({ payloads: encrypted }),
    });
    expect(response.status).toBe(200);
    const decoded = (await response.json()) as { payloads: Array<{ metadata: Record<string, string>; data: string }> };
    expect(decoded.payloads).toHaveLength(encrypted.length);
    const clear = decoded.payloads.map((payload) => Buffer.from(payload.data, 'base64').toString('utf8')).join('\n');
    expect(clear).toContain(user.address);
    expect(clear).toContain(amount);
    expect(clear).toContain(fiatAmount);
    expect(clear).toContain(user.endUserId);
    expect(decoded.payloads.every((payload) => Buffer.from(payload.metadata.encoding!, 'base64').toString() === 'json/plain')).toBe(true);

    // The typed client (with the codec) still reads everything.
    expect((await stack.ramp.getOffRamp(depositId)).fiatAmount).toBe(fiatAmount);
  });
});
