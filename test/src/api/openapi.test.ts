/**
 * docs/openapi.json: current (generated from the routes' schemas, `npm run openapi`), valid OpenAPI 3.1 for a
 * validator from npm, served without a key, and describing every outcome webhook. The answer check the API's
 * tests rely on (test/helpers/openapi-answers.ts) refuses an answer the document does not describe.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { openApiDocument, openApiText } from '../../../src/api/openapi';
import { NotFoundError } from '../../../src/client/errors';
import { OUTCOME_EVENT_TYPES } from '../../../src/domain/outcome-events';
import { expectAnswersMatchDocument } from '../../helpers/openapi-answers';
import { AUTH, stubApp } from '../../helpers/api-stub';

const ROOT = path.join(__dirname, '..', '..', '..');
const COMMITTED = path.join(ROOT, 'docs', 'openapi.json');

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  webhooks: Record<
    string,
    {
      post: {
        parameters: { name: string; in: string }[];
        requestBody: { content: Record<string, { schema: { $ref: string } }> };
      };
    }
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

describe('the OpenAPI document', () => {
  test('docs/openapi.json is the document the code generates (run `npm run openapi` after changing the API)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(openApiText());
  });

  test('docs/openapi.json is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const cli = path.join(
      ROOT,
      'node_modules',
      '@seriousme',
      'openapi-schema-validator',
      'bin',
      'validate-api-cli.js',
    );
    const { stdout } = await promisify(execFile)(process.execPath, [cli, COMMITTED]);
    expect(JSON.parse(stdout)).toEqual({ valid: true });
    expect((openApiDocument() as Doc).openapi).toMatch(/^3\.1\./);
  });

  test('GET /openapi.json needs no key and answers the document', async () => {
    const { app } = stubApp();
    const response = await request(app).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(openApiText()));
  });

  test('every route of the API is in it, with its answers and the error envelope', () => {
    const doc = openApiDocument() as Doc;
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/openapi.json',
      '/v1/account',
      '/v1/account/setup',
      '/v1/alerts',
      '/v1/end-users/{id}',
      '/v1/end-users/{id}/deposit-quote',
      '/v1/end-users/{id}/deposit-wallet',
      '/v1/events/{webhookId}/redeliver',
      '/v1/off-ramps/{depositTransactionId}',
      '/v1/on-ramps',
      '/v1/on-ramps/{orderReference}',
      '/v1/quotes',
      '/v1/ramps',
      '/v1/statement',
    ]);
    expect(Object.keys(doc.paths['/v1/on-ramps']!.post!.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '409']),
    );
    expect(Object.keys(doc.paths['/v1/events/{webhookId}/redeliver']!.post!.responses)).toContain('202');
    expect(doc.components.schemas.OnRampState!.properties).toHaveProperty('outcomes');
    expect(doc.components.schemas.OffRampState!.properties).toHaveProperty('outcomes');
  });

  test('the webhooks section has one entry per outcome event type, with its body and the Standard Webhooks headers', () => {
    const doc = openApiDocument() as Doc;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...OUTCOME_EVENT_TYPES].sort());
    for (const type of OUTCOME_EVENT_TYPES) {
      const post = doc.webhooks[type]!.post;
      expect(post.parameters.map((header) => `${header.in}:${header.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
      const id = post.requestBody.content['application/json']!.schema.$ref.replace(
        '#/components/schemas/',
        '',
      );
      expect(doc.components.schemas[id]!.properties).toEqual(
        expect.objectContaining({
          type: { type: 'string', const: type },
          data: { $ref: '#/components/schemas/OutcomeEventData' },
        }),
      );
    }
  });

  test('the answer check refuses an answer the document does not describe, and an undocumented status', async () => {
    expectAnswersMatchDocument();
    const { app } = stubApp({
      getOnRamp: jest
        .fn()
        .mockResolvedValue({ orderReference: 'ord-1', status: 'awaiting-order', extra: true }),
      getOffRamp: jest.fn().mockResolvedValue(undefined),
    });
    await request(app).get('/v1/on-ramps/ord-1').set(AUTH);
    expect(() => expectAnswersMatchDocument()).toThrow(/GET \/v1\/on-ramps\/ord-1 200/);
    await request(app).get('/v1/ramps?limit=5').set(AUTH); // listRamps answers nothing: a 500 the document lists
    expect(expectAnswersMatchDocument()).toBe(1);
    const odd = stubApp({ listRamps: jest.fn().mockRejectedValue(new NotFoundError('nothing')) });
    expect((await request(odd.app).get('/v1/ramps').set(AUTH)).status).toBe(404);
    expect(() => expectAnswersMatchDocument()).toThrow(
      /GET \/v1\/ramps answered 404, which the document does not list/,
    );
  });
});
