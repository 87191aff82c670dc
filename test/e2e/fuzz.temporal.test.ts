/**
 * A bounded fuzz of the API, the webhook receiver and the codec server with hostile input only: malformed paths and
 * percent-encodings, surrogates, dots, very long URLs and headers, bad content types, charsets and encodings,
 * malformed JSON, wrong shapes, corrupt gzip, deep nesting, unusable IDs. Fixed seed, loopback only, about 3000
 * requests over raw sockets (so nothing is cleaned up by a client library on the way).
 *
 * Every answer must be a 4xx carrying the JSON error envelope (a 5xx would mean the input broke our side), and the
 * rejected input must have reached neither Temporal (no execution on the test's task queue, the shared
 * unknown-events store untouched) nor the operator (the sandbox's call log unchanged).
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { startApiServer, type RunningApiServer } from '../../src/api/server';
import { quoteRequestSchema } from '../../src/client/quote-input';
import { parseEncryptionKeys } from '../../src/config/encryption';
import { SecretString } from '../../src/secrets/secret-string';
import { RampMetrics } from '../../src/observability/metrics';
import { Random } from '../../src/sandbox/random';
import { startCodecServer, type RunningCodecServer } from '../../src/temporal/codec-server';
import { identifierIssue } from '../../src/validation/identifiers';
import { UNKNOWN_EVENTS_WORKFLOW_ID } from '../../src/domain/ids';
import { isErrorEnvelope, rawRequest, requestText, type RawTarget } from '../helpers/raw-http';
import { connectTestClient } from '../helpers/temporal';
import { type RampStack, startRampStack } from '../helpers/ramp-stack';

const SEED = 0x5eed_1234;
const API_KEY = 'fuzz-api-key-0123456789abcdef';
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';
const CODEC_TOKEN = 'fuzz-codec-token-0123456789';
const REQUESTS = { api: 1200, receiver: 1000, codec: 800 };
const CONCURRENCY = 8;

interface Probe {
  /** What was sent, for the failure report (never the receiver's secret). */
  label: string;
  target: RawTarget;
  request: Buffer;
  /** Close our side once sent (a body shorter than its Content-Length is then known to be cut short). */
  endAfterWrite?: boolean;
}

class Generator {
  readonly random: Random;
  constructor(seed: number) {
    this.random = new Random(seed);
  }
  int(max: number): number {
    return Math.floor(this.random.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(probability: number): boolean {
    return this.random.next() < probability;
  }

  /** A string that is not an identifier of any kind, by construction and checked. */
  hostileId(): string {
    const makers: Array<() => string> = [
      () => '\ud800',
      () => `tx-${this.pick(['\ud800', '\udfff', '\udbff'])}-${this.int(1000)}`,
      () => this.pick(['.', '..']),
      () => `a${this.pick(['/', '\\'])}b`,
      () => this.pick(['%2e%2e', '%2E%2e', '.%2e', '../x', '..\\x', '%00']),
      () => `id${String.fromCharCode(this.int(32))}x`,
      () => `id${this.pick(['\u007f', '\u200b', '\u202e', '\u2028', '\ufeff'])}`,
      () => this.pick([' ', 'a b', "o'x", 'a"b', 'ü', '😀', 'ıd', '<script>', 'a?b', 'a#b', 'a+b']),
      () => 'x'.repeat(201 + this.int(400)),
      () => this.pick(['-lead', '_lead', ':lead', '@lead', '']),
      () => Array.from({ length: 1 + this.int(12) }, () => String.fromCharCode(this.int(0xffff))).join(''),
    ];
    for (;;) {
      const value = this.pick(makers)();
      if (
        identifierIssue(value, 'resource ID') !== undefined &&
        identifierIssue(value, 'order reference') !== undefined
      )
        return value;
    }
  }

  /** A raw path segment: malformed percent-encodings, encoded surrogates and dots, or a hostile ID encoded as such. */
  hostileSegment(): string {
    return this.pick<() => string>([
      () =>
        this.pick([
          '%ZZ',
          'a%FF',
          '%ED%A0%80',
          '%',
          '%%',
          '%E0%80',
          '%C0%AE%C0%AE',
          '%FF%FE',
          'a%2',
          '%u0041',
        ]),
      () => this.pick(['..', '.', '%2e%2e', '%2E', '.%2e', '%2F', 'a%2Fb', '%5C', '%00', '%0A', '%20']),
      () => {
        // encodeURIComponent cannot encode a lone surrogate: drop them, and keep the result only if still hostile.
        const id = this.hostileId().replace(/[\ud800-\udfff]/g, '');
        return identifierIssue(id, 'end user ID') === undefined ? '%ED%B0%80' : encodeURIComponent(id);
      },
      () => `${'%41'.repeat(1 + this.int(300))}%ZZ`,
      () => 'ÿþ'.repeat(1 + this.int(4)),
    ])();
  }

  longUrl(prefix: string): string {
    return `${prefix}${'a'.repeat(17_000 + this.int(60_000))}`;
  }

  deep(depth: number): string {
    return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  }

  malformedJson(): string {
    return this.pick([
      '{',
      '{"data":',
      '{"a":1,}',
      "{'a':1}",
      '[1,2',
      'nul',
      '{"a":"\\x"}',
      '{"a":"\\ud800\\u"}',
      '\u0000',
      '{"a":1}}',
      '{"a" 1}',
      `{"a":"${'\\'.repeat(3)}"}`,
      '\ufeff{"a":1}',
      '"just a string"',
      '42',
      '{"a":NaN}',
    ]);
  }
}

interface Sender {
  body?: string | Buffer;
  headers: Record<string, string>;
  label: string;
  endAfterWrite?: boolean;
}

/** A hostile way to send a JSON-looking body: bad type, charset, encoding, corrupt gzip or oversize. Or plain JSON. */
function bodyEncoding(gen: Generator, json: string, limit: number): Sender {
  return gen.pick<() => Sender>([
    () => ({ body: json, headers: { 'content-type': 'application/json' }, label: 'json' }),
    () => ({
      body: json,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      label: 'json utf-8',
    }),
    () => ({
      body: json,
      headers: {
        'content-type': `application/json; charset=${gen.pick(['latin1', 'utf-16', 'foo', 'ascii', 'utf-7'])}`,
      },
      label: 'bad charset',
    }),
    () => ({
      body: json,
      headers: {
        'content-type': 'application/json',
        'content-encoding': gen.pick(['foo', 'br2', 'x-gzip2', 'identity, foo']),
      },
      label: 'bad encoding',
    }),
    () => ({
      body: json,
      headers: {
        'content-type': 'application/json',
        'content-encoding': gen.pick(['gzip', 'deflate', 'br']),
      },
      label: 'corrupt compressed body',
    }),
    () => ({
      body: gzipSync(json).subarray(0, 12),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      label: 'truncated gzip',
    }),
    () => ({
      body: `${json}${' '.repeat(limit + 1)}`,
      headers: { 'content-type': 'application/json' },
      label: 'oversize',
    }),
    () => ({
      body: json,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json) + 50) },
      label: 'short body',
      endAfterWrite: true,
    }),
  ])();
}

// ------------------------------------------------------------------------------------------------ the API

function apiProbes(gen: Generator, target: RawTarget, count: number): Probe[] {
  const auth = { authorization: `Bearer ${API_KEY}` };
  const validQuote = {
    direction: 'on-ramp',
    coinFrom: 'MXN',
    coinTo: 'USDT',
    chainTo: 'TRX',
    amountFrom: '100',
  };
  const badQuote = (): string => {
    for (;;) {
      const quote: Record<string, unknown> = { ...validQuote };
      const field = gen.pick(Object.keys(validQuote));
      quote[field] = gen.pick<() => unknown>([
        () => gen.hostileId(),
        () => gen.pick([null, 0, -1, true, [], {}, '', '-5', '1e3', '0', '0.0000000000000000001', '١٢٣']),
        () => JSON.parse(gen.deep(1 + gen.int(200))) as unknown,
      ])();
      if (gen.chance(0.2)) quote[gen.hostileId().replace(/[\ud800-\udfff]/g, '') || 'extra'] = 1;
      if (gen.chance(0.1)) delete quote.direction;
      if (!quoteRequestSchema.safeParse(quote).success) return JSON.stringify(quote);
    }
  };
  const makers: Array<() => Omit<Probe, 'target'>> = [
    () => {
      const segment = gen.hostileSegment();
      const post = gen.chance(0.5);
      const path = post ? `/v1/end-users/${segment}/deposit-wallet` : `/v1/end-users/${segment}`;
      return {
        label: `${post ? 'POST' : 'GET'} end user ${JSON.stringify(segment)}`,
        request: requestText(post ? 'POST' : 'GET', path, auth),
      };
    },
    () => {
      const json = gen.pick([
        badQuote,
        () => gen.malformedJson(),
        () => gen.deep(1000 + gen.int(20_000)),
        () => `{"direction":${gen.deep(5000)}}`,
      ])();
      const sender = bodyEncoding(gen, json, 64 * 1024);
      return {
        label: `POST /v1/quotes ${sender.label}: ${json.slice(0, 80)}`,
        request: requestText('POST', '/v1/quotes', { ...auth, ...sender.headers }, sender.body),
        endAfterWrite: sender.endAfterWrite,
      };
    },
    () => {
      // Any body that parses would let the setup run: only bodies that fail before the route (body-parser drops a
      // leading BOM and accepts any object, so those are not among them).
      const json = gen.pick([
        '{',
        '{"a":',
        '{"a":1,}',
        "{'a':1}",
        '[1,2',
        '{"a":NaN}',
        '"text"',
        '42',
        '{"a":"\\x"}',
      ]);
      const sender = gen.pick<Sender>([
        { body: json, headers: { 'content-type': 'application/json' }, label: 'malformed' },
        { body: '{}', headers: { 'content-type': 'application/json; charset=latin1' }, label: 'bad charset' },
        {
          body: '{}',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          label: 'corrupt gzip',
        },
        {
          body: '{}',
          headers: { 'content-type': 'application/json', 'content-encoding': 'foo' },
          label: 'bad encoding',
        },
      ]);
      return {
        label: `POST /v1/account/setup ${sender.label}`,
        request: requestText('POST', '/v1/account/setup', { ...auth, ...sender.headers }, sender.body),
      };
    },
    () => {
      const path = gen.pick(['/v1/alerts', '/v1/account', '/v1/end-users/u1', '/v1/quotes', '/metrics']);
      const header = gen.pick<Record<string, string>>([
        {},
        { authorization: 'Bearer wrong' },
        { authorization: `Basic ${API_KEY}` },
        { authorization: `Bearer ${API_KEY}x` },
        { authorization: 'Bearer' },
      ]);
      return {
        label: `no valid key for ${path}`,
        request: requestText(path === '/v1/quotes' ? 'POST' : 'GET', path, header),
      };
    },
    () => ({ label: 'long URL', request: requestText('GET', gen.longUrl('/v1/end-users/'), auth) }),
    () => ({
      label: 'huge header',
      request: requestText('GET', '/v1/alerts', { ...auth, 'x-fill': 'h'.repeat(17_000 + gen.int(40_000)) }),
    }),
    () => ({
      label: 'many headers',
      request: requestText('GET', '/v1/alerts', {
        ...auth,
        ...Object.fromEntries(Array.from({ length: 2500 }, (_u, i) => [`x-h${i}`, 'v'])),
      }),
    }),
    () => {
      const method = gen.pick(['PUT', 'DELETE', 'PATCH']);
      const path = gen.pick(['/v1/alerts', '/v1/quotes', '/v1/account', '/v1/end-users/u1']);
      return { label: `${method} ${path}`, request: requestText(method, path, auth) };
    },
    () => {
      const path = gen.pick([
        '/v1',
        '/v2/quotes',
        '/v1/end-users',
        '/v1/end-users/u1/x/y',
        `/${gen.hostileSegment()}`,
        '/..',
        '/v1/../v1/alerts/x',
      ]);
      return { label: `unknown route ${JSON.stringify(path)}`, request: requestText('GET', path, auth) };
    },
    () => ({
      label: 'malformed HTTP',
      request: Buffer.from(
        gen.pick([
          'GET /v1/alerts HTTP/1.1\r\nHost: x\r\nbad\r\n\r\n',
          'GET /v1/alerts HTTP/9.9\r\n\r\n',
          'GET\r\n\r\n',
          'G@T / HTTP/1.1\r\nHost: x\r\n\r\n',
          'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
          'GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
        ]),
      ),
    }),
  ];
  return Array.from({ length: count }, () => ({ ...gen.pick(makers)(), target }));
}

// ------------------------------------------------------------------------------------------------ the receiver

function receiverProbes(
  gen: Generator,
  target: RawTarget,
  paths: { transaction: string; order: string },
  count: number,
): Probe[] {
  const delivery = (eventType: unknown, payload: unknown) => JSON.stringify({ data: { eventType, payload } });
  const hostileDelivery = (): string =>
    gen.pick<() => string>([
      () =>
        delivery(gen.pick(['transaction-created', 'transaction-updated']), {
          id: gen.hostileId(),
          newStatus: 'confirmed',
        }),
      () =>
        delivery(gen.pick(['order-created', 'order-updated']), {
          id: gen.pick([gen.hostileId(), `order-${gen.int(1e6)}`]),
          orderReference: gen.hostileId(),
          newStatus: 'executed',
        }),
      () =>
        delivery(gen.pick(['order-created', 'order-updated']), {
          id: gen.hostileId(),
          orderReference: `ref-${gen.int(1e6)}`,
          newStatus: 'executed',
        }),
      () =>
        delivery(gen.pick(['order-archived', 'wallet-frozen', '\ud800', 'x'.repeat(300)]), {
          id: gen.hostileId(),
        }),
      () =>
        delivery('transaction-created', {
          id: gen.hostileId(),
          nested: JSON.parse(gen.deep(1 + gen.int(3000))) as unknown,
        }),
      () =>
        delivery(gen.pick(['transaction-updated', 'order-created', 'order-updated']), {
          id: `tx-${gen.int(1e6)}`,
        }),
      () => delivery(gen.pick([null, 5, '', [], {}]), { id: 'tx-1' }),
      () =>
        delivery('transaction-created', gen.pick([null, 5, 'x', [], { id: 5 }, { id: '' }, { id: null }])),
      () =>
        JSON.stringify(
          gen.pick([
            {},
            { data: null },
            { data: [] },
            { data: 'x' },
            { data: { payload: { id: 'tx-1' } } },
            [],
            [1, 2],
          ]),
        ),
      () => gen.malformedJson(),
      () => gen.deep(1000 + gen.int(6000)),
    ])();
  const makers: Array<() => Omit<Probe, 'target'>> = [
    () => {
      const json = hostileDelivery();
      const sender = bodyEncoding(gen, json, 16 * 1024);
      const kind = gen.pick(['transaction', 'order'] as const);
      return {
        label: `delivery to ${kind} (${sender.label}): ${json.slice(0, 100)}`,
        request: requestText('POST', paths[kind], sender.headers, sender.body),
        endAfterWrite: sender.endAfterWrite,
      };
    },
    () => {
      const kind = gen.pick(['transaction', 'order'] as const);
      const contentType = gen.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/jsonx',
        'multipart/form-data; boundary=x',
        '*/*',
      ]);
      return {
        label: `delivery as ${contentType}`,
        request: requestText('POST', paths[kind], { 'content-type': contentType }, hostileDelivery()),
      };
    },
    () => {
      const path = gen.pick([
        () => `/webhooks/transactions/${gen.hostileSegment()}`,
        () => `/webhooks/${gen.hostileSegment()}/${gen.hostileSegment()}`,
        () => `/webhooks/orders/${'s'.repeat(24 + gen.int(100))}`,
        () => `${paths.transaction}/..`,
        () => `${paths.order}/${gen.hostileSegment()}`,
        () => `/${gen.hostileSegment()}`,
      ])();
      // The secret may be inside `path`: the label names the shape only.
      return {
        label: 'delivery to a hostile path',
        request: requestText(
          'POST',
          path,
          { 'content-type': 'application/json' },
          delivery('transaction-created', { id: 'tx-1' }),
        ),
      };
    },
    () => ({
      label: 'long URL',
      request: requestText(
        'POST',
        gen.longUrl('/webhooks/transactions/'),
        { 'content-type': 'application/json' },
        '{}',
      ),
    }),
    () => ({
      label: 'huge header',
      request: requestText(
        'POST',
        paths.transaction,
        { 'content-type': 'application/json', 'x-fill': 'h'.repeat(17_000 + gen.int(40_000)) },
        '{}',
      ),
    }),
    () => ({
      label: `GET ${'a delivery path'}`,
      request: requestText(gen.pick(['GET', 'PUT', 'DELETE']), paths.transaction),
    }),
  ];
  return Array.from({ length: count }, () => ({ ...gen.pick(makers)(), target }));
}

// ------------------------------------------------------------------------------------------------ the codec server

function codecProbes(gen: Generator, target: RawTarget, count: number): Probe[] {
  const auth = { authorization: `Bearer ${CODEC_TOKEN}` };
  const b64 = (bytes: number) => randomBytesFrom(gen, bytes).toString('base64');
  const badBody = (direction: 'encode' | 'decode'): string =>
    gen.pick<() => string>([
      () =>
        JSON.stringify(
          gen.pick([
            {},
            { payloads: null },
            { payloads: 5 },
            { payloads: 'x' },
            { payloads: {} },
            [],
            { nope: 1 },
          ]),
        ),
      () => JSON.stringify({ payloads: [gen.pick([5, null, 'x', [], true])] }),
      () => JSON.stringify({ payloads: [{ metadata: gen.pick(['x', 5, [], true]) }] }),
      () => JSON.stringify({ payloads: [{ metadata: { encoding: gen.pick([5, null, {}, []]) } }] }),
      () => JSON.stringify({ payloads: [{ metadata: {}, data: gen.pick([5, {}, [], true]) }] }),
      () =>
        direction === 'decode'
          ? JSON.stringify({
              payloads: [
                {
                  metadata: {
                    encoding: Buffer.from('binary/encrypted').toString('base64'),
                    'encryption-key-id': Buffer.from(gen.pick(['k1', 'k9', ''])).toString('base64'),
                  },
                  data: b64(gen.int(80)),
                },
              ],
            })
          : JSON.stringify({ payloads: [{ metadata: { encoding: 7 } }] }),
      () => gen.malformedJson(),
      () => `{"payloads":${gen.deep(1000 + gen.int(20_000))}}`,
    ])();
  const makers: Array<() => Omit<Probe, 'target'>> = [
    () => {
      const direction = gen.pick(['encode', 'decode'] as const);
      const json = badBody(direction);
      const sender = bodyEncoding(gen, json, 8 * 1024 * 1024);
      if (sender.label === 'oversize') sender.body = json; // 8 MB bodies are not worth the time here
      return {
        label: `POST /codec/${direction} (${sender.label}): ${json.slice(0, 80)}`,
        request: requestText('POST', `/codec/${direction}`, { ...auth, ...sender.headers }, sender.body),
        endAfterWrite: sender.endAfterWrite,
      };
    },
    () => {
      const contentType = gen.pick([
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]);
      return {
        label: `cross-origin ${contentType} POST`,
        request: requestText(
          'POST',
          '/codec/encode',
          { ...auth, origin: 'https://evil.example', 'content-type': contentType },
          JSON.stringify({ payloads: [{ metadata: {}, data: 'eA==' }] }),
        ),
      };
    },
    () => ({
      label: 'no or wrong token',
      request: requestText(
        'POST',
        gen.pick(['/codec/decode', '/codec/encode', '/decode']),
        {
          'content-type': 'application/json',
          ...gen.pick<Record<string, string>>([
            {},
            { authorization: 'Bearer nope' },
            { authorization: CODEC_TOKEN },
          ]),
        },
        '{"payloads":[]}',
      ),
    }),
    () => {
      const host = gen.pick([
        'evil.example',
        'evil.example:8234',
        '127.0.0.1.nip.io',
        'localhost.evil.example',
        '[::2]',
        '',
        'a b',
        '10.0.0.1',
      ]);
      return {
        label: `Host ${JSON.stringify(host)}`,
        request: requestText(
          'POST',
          '/codec/decode',
          { ...auth, host, 'content-type': 'application/json' },
          '{"payloads":[]}',
        ),
      };
    },
    () => ({
      label: 'foreign preflight',
      request: requestText('OPTIONS', '/codec/decode', {
        origin: gen.pick(['https://evil.example', 'null', 'http://127.0.0.1:1']),
        'access-control-request-method': 'POST',
      }),
    }),
    () => ({
      label: 'hostile path',
      request: requestText(gen.pick(['GET', 'POST', 'PUT']), `/codec/${gen.hostileSegment()}`, auth),
    }),
    () => ({ label: 'long URL', request: requestText('POST', gen.longUrl('/codec/'), auth) }),
    () => ({
      label: 'huge header',
      request: requestText('POST', '/codec/decode', {
        ...auth,
        'x-fill': 'h'.repeat(17_000 + gen.int(40_000)),
      }),
    }),
  ];
  return Array.from({ length: count }, () => ({ ...gen.pick(makers)(), target }));
}

function randomBytesFrom(gen: Generator, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => gen.int(256)));
}

// ------------------------------------------------------------------------------------------------ the run

interface Failure {
  label: string;
  problem: string;
}

async function send(probes: Probe[]): Promise<{ failures: Failure[]; statuses: Map<number, number> }> {
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++]!;
      try {
        const answer = await rawRequest(probe.target, probe.request, 15_000, probe.endAfterWrite);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        let body: unknown;
        try {
          body = JSON.parse(answer.body);
        } catch {
          body = undefined;
        }
        if (!(answer.status >= 400 && answer.status < 500))
          failures.push({
            label: probe.label,
            problem: `status ${answer.status}: ${answer.body.slice(0, 200)}`,
          });
        else if (!/^application\/json/.test(answer.headers['content-type'] ?? ''))
          failures.push({ label: probe.label, problem: `content-type ${answer.headers['content-type']}` });
        else if (!isErrorEnvelope(body))
          failures.push({ label: probe.label, problem: `body ${answer.body.slice(0, 200)}` });
      } catch (error) {
        failures.push({ label: probe.label, problem: `no answer: ${(error as Error).message}` });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { failures, statuses };
}

describe('fuzz: hostile input only ever gets a JSON 4xx and reaches neither Temporal nor the operator', () => {
  let client: Client;
  let connection: Connection;
  let stack: RampStack;
  let api: RunningApiServer;
  let codec: RunningCodecServer;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    stack = await startRampStack(client, connection);
    const logger = pino({ level: 'silent' });
    api = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString(API_KEY),
        idempotencyRetentionMs: 86_400_000,
      },
      ramp: stack.ramp,
      ledger: stack.database.db,
      logger,
      health: {
        metrics: new RampMetrics({ temporal: client, logger }),
        metricsToken: new SecretString(METRICS_TOKEN),
      },
    });
    codec = await startCodecServer({
      keys: parseEncryptionKeys(`k1:${randomBytes(32).toString('base64')}`),
      codecServer: {
        host: '127.0.0.1',
        port: 0,
        corsOrigins: ['http://127.0.0.1:8233'],
        token: new SecretString(CODEC_TOKEN),
        publicUrl: undefined,
      },
    });
  });

  afterAll(async () => {
    await api?.close();
    await codec?.close();
    await stack?.close();
    await connection?.close();
  });

  test(`${REQUESTS.api + REQUESTS.receiver + REQUESTS.codec} requests, seed ${SEED}`, async () => {
    const taskQueue = stack.worker.taskQueue;
    const executions = async () => (await client.workflow.count(`TaskQueue = '${taskQueue}'`)).count;
    const unknownEvents = async () =>
      client.workflow
        .getHandle(UNKNOWN_EVENTS_WORKFLOW_ID)
        .describe()
        .then(
          (description) => `${description.runId}:${description.historyLength}`,
          () => 'absent',
        );
    const before = {
      executions: await executions(),
      unknownEvents: await unknownEvents(),
      operatorCalls: stack.sandbox.calls().length,
    };

    const gen = new Generator(SEED);
    const transactionPath = new URL(stack.receiver.recipientUrls.transaction).pathname;
    const orderPath = new URL(stack.receiver.recipientUrls.order).pathname;
    const probes = [
      ...apiProbes(gen, { host: '127.0.0.1', port: api.port }, REQUESTS.api),
      ...receiverProbes(
        gen,
        { host: '127.0.0.1', port: stack.receiver.port, tls: true },
        { transaction: transactionPath, order: orderPath },
        REQUESTS.receiver,
      ),
      ...codecProbes(gen, { host: '127.0.0.1', port: codec.port }, REQUESTS.codec),
    ];
    const started = Date.now();
    const { failures, statuses } = await send(probes);
    process.stdout.write(
      `[fuzz] ${probes.length} requests in ${Date.now() - started} ms; answers: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
    if (failures.length > 0)
      process.stdout.write(
        `[fuzz] ${failures.length} failures:\n${failures
          .slice(0, 40)
          .map((failure) => `  ${failure.label.slice(0, 160)} -> ${failure.problem}`)
          .join('\n')}\n`,
      );
    expect(failures.slice(0, 15)).toEqual([]);
    // The fuzz exercised the rejections it is about, not one of them over and over.
    for (const status of [400, 401, 403, 404, 413, 415, 431])
      expect(statuses.get(status) ?? 0).toBeGreaterThan(10);

    // Visibility trails by a moment: give a stray start time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect({
      executions: await executions(),
      unknownEvents: await unknownEvents(),
      operatorCalls: stack.sandbox.calls().length,
    }).toEqual(before);
    expect(JSON.stringify(stack.logLines())).not.toContain(stack.receiverConfig.transactionSecret.reveal());
  });
});
