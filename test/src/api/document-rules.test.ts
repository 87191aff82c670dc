/**
 * The document is the whole truth: every rule the API enforces on its inputs is published in it (patterns,
 * lengths, enums, what is required), and a method a known path does not serve answers 405 with `Allow`.
 * The rules are checked both ways: what the document allows the API accepts, what it refuses the API refuses.
 */
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { openApiDocument } from '../../../src/api/openapi';
import { AUTH, stubApp } from '../../helpers/api-stub';

type Json = Record<string, unknown>;
const doc = openApiDocument() as {
  paths: Record<string, Record<string, { parameters?: Json[]; requestBody?: Json }>>;
  components: { schemas: Record<string, Json> };
};

const ajv = new Ajv2020({ strict: false, validateSchema: false });
ajv.addSchema({ ...doc, $id: 'doc' });
const parameterSchema = (path: string, method: string, name: string) =>
  doc.paths[path]![method]!.parameters!.find((parameter) => parameter.name === name)!.schema as Json;
const valid = (schema: Json, value: unknown) => ajv.validate(schema, value);

describe('the document publishes every input rule', () => {
  test('identifiers in paths, queries and bodies carry their alphabet and length', () => {
    const endUser = parameterSchema('/v1/end-users/{id}', 'get', 'id');
    expect(endUser).toMatchObject({ minLength: 1, maxLength: 128, pattern: expect.any(String) });
    for (const bad of ['ë', '', '.', '..', 'a/b', 'a b', '-a', 'x'.repeat(129)])
      expect(valid(endUser, bad)).toBe(false);
    for (const good of ['user-42', 'a', 'A.b_c:d@e-f', 'x'.repeat(128)])
      expect(valid(endUser, good)).toBe(true);
    expect(parameterSchema('/v1/on-ramps/{orderReference}', 'get', 'orderReference')).toMatchObject({
      maxLength: 200,
    });
    expect(parameterSchema('/v1/ramps', 'get', 'endUserId')).toMatchObject({ maxLength: 128 });
    const body = doc.components.schemas.StartOnRampRequest as { properties: Record<string, Json> };
    expect(body.properties.orderReference).toMatchObject({ minLength: 1, maxLength: 200 });
  });

  test('an amount is a decimal string greater than zero, by pattern', () => {
    const quote = doc.components.schemas.OnRampQuoteRequest as { properties: { amountFrom: Json } };
    for (const bad of ['0', '0.0', '00.1', '-1', '1e3', ' 1', '1.', '.5', '0.0000000000000000001'])
      expect(valid(quote.properties.amountFrom, bad)).toBe(false);
    for (const good of ['1', '0.5', '100.50', '0.000000000000000001'])
      expect(valid(quote.properties.amountFrom, good)).toBe(true);
  });

  test("a webhook ID's shape is described", () => {
    const webhookId = parameterSchema('/v1/events/{webhookId}/redeliver', 'post', 'webhookId');
    for (const bad of ['0', 'evt_', 'evt_a~0', 'evt_~a~1', 'evt_a~~b~1', 'evt_a b~1'])
      expect(valid(webhookId, bad)).toBe(false);
    for (const good of ['evt_offramp~tx-1~2', 'evt_end-user~alice~1'])
      expect(valid(webhookId, good)).toBe(true);
  });

  test('what the document refuses the API refuses (400), and what it allows the API lets through', async () => {
    const { app, ramp } = stubApp({
      getEndUserOverview: jest.fn().mockResolvedValue({
        endUserId: 'x',
        walletStatus: 'none',
        ramps: [],
        nextRampsPageToken: null,
      }),
    });
    for (const id of ['%C3%AB', 'a%20b', '-a']) {
      const response = await request(app).get(`/v1/end-users/${id}`).set(AUTH);
      expect(response.status).toBe(400);
    }
    expect(ramp.getEndUserOverview).not.toHaveBeenCalled();
    expect((await request(app).get('/v1/end-users/A.b_c:d@e-f').set(AUTH)).status).toBe(200);
    const zero = await request(app)
      .post('/v1/quotes')
      .set(AUTH)
      .send({ direction: 'off-ramp', coinFrom: 'USDT', chainFrom: 'TRX', coinTo: 'MXN', amountFrom: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body.error.issues).toEqual(['amountFrom: must be greater than zero']);
    const empty = await request(app)
      .post('/v1/on-ramps')
      .set(AUTH)
      .send({ endUserId: 'u', orderReference: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.issues).toEqual(['orderReference: must be 1-200 characters']);
    const limit = await request(app).get('/v1/ramps?limit=101').set(AUTH);
    expect(limit.status).toBe(400);
  });
});

describe('405 for a method a known path does not serve', () => {
  test('every path of the document: the methods it does not list answer 405 with Allow and the JSON body', async () => {
    const { app } = stubApp();
    const all = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template.replace('{webhookId}', 'evt_offramp~tx-1~1').replace(/\{[^}]+\}/g, 'x-1');
      const served = Object.keys(operations).map((method) => method.toUpperCase());
      const allow = [...served, ...(served.includes('GET') ? ['HEAD'] : [])].join(', ');
      for (const method of all.filter((candidate) => !served.includes(candidate))) {
        // Without the key too: which methods a path serves is public.
        const response = await request(app)[method.toLowerCase() as 'get'](path);
        expect([template, method, response.status]).toEqual([template, method, 405]);
        expect(response.headers.allow).toBe(allow);
        expect(response.body.error.code).toBe('method_not_allowed');
      }
    }
  });

  test('a concrete path wins over a template that matches it; trailing slash and case as express routes them', async () => {
    const { app } = stubApp();
    const response = await request(app).get('/v1/quotes/').set(AUTH);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect((await request(app).delete('/V1/Account').set(AUTH)).headers.allow).toBe('GET, HEAD');
    // An unknown path stays 404.
    expect((await request(app).delete('/v1/nothing').set(AUTH)).status).toBe(404);
  });
});
