/**
 * docs/openapi.json: current (generated from the declared endpoints, `npm run openapi`), valid OpenAPI 3.1 for a
 * validator from npm, served without a key, and describing every outcome webhook. The answer check the API's
 * tests rely on (test/helpers/openapi-answers.ts) refuses an answer the document does not describe.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { openApiDocument, openApiText } from '../../../src/api/openapi';
import { ConflictError } from '../../../src/client/errors';
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

  test("an operation lists each status it answers, and a ramp's answer is its view", () => {
    const doc = openApiDocument() as Doc;
    expect(Object.keys(doc.paths['/v1/on-ramps']!.post!.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '409']),
    );
    expect(Object.keys(doc.paths['/v1/events/{webhookId}/redeliver']!.post!.responses)).toContain('202');
    // A ramp's answer is its view: what a client books or shows, none of the process's own bookkeeping.
    for (const view of ['OnRamp', 'OffRamp']) {
      expect(doc.components.schemas[view]!.properties).toHaveProperty('exceptions');
      expect(doc.components.schemas[view]!.properties).not.toHaveProperty('outcomes');
      expect(doc.components.schemas[view]!.properties).not.toHaveProperty('polls');
    }
  });

  test('each link names an operation of the document and fills its path parameters from a field of the answer', () => {
    type Operation = {
      operationId: string;
      parameters?: { name: string; in: string }[];
      responses: Record<
        string,
        {
          links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
          content?: Record<
            string,
            { schema: { $ref?: string; properties?: Record<string, { $ref?: string }> } }
          >;
        }
      >;
    };
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
    const linked: string[] = [];
    for (const operation of operations)
      for (const [status, response] of Object.entries(operation.responses))
        for (const [name, link] of Object.entries(response.links ?? {})) {
          linked.push(`${operation.operationId} ${status} ${name} -> ${link.operationId}`);
          const target = byId.get(link.operationId)!;
          expect(target).toBeDefined();
          const pathParameters = (target.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
          expect(Object.keys(link.parameters).sort()).toEqual(pathParameters.sort());
          for (const expression of Object.values(link.parameters)) {
            const field = /^\$response\.body#\/data\/(\w+)$/.exec(expression)?.[1];
            if (field === undefined) {
              const own = /^\$request\.path\.(\w+)$/.exec(expression)?.[1];
              expect((operation.parameters ?? []).map((p) => p.name)).toContain(own);
              continue;
            }
            const data = response.content!['application/json']!.schema.properties!.data!.$ref!;
            const component = data.replace('#/components/schemas/', '');
            expect(doc.components.schemas[component]!.properties).toHaveProperty(field);
          }
        }
    expect(linked).toEqual([
      'ensureDepositWallet 200 endUser -> getEndUser',
      'startOnRamp 200 onRamp -> getOnRamp',
      'startOnRamp 201 onRamp -> getOnRamp',
      'sendTestEvent 202 event -> getEvent',
      'redeliverEvents 202 job -> getRedeliveryJob',
    ]);
  });

  test('the webhooks section has one entry per outcome event type, with its body and the Standard Webhooks headers', () => {
    const doc = openApiDocument() as Doc;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...OUTCOME_EVENT_TYPES, 'test.ping'].sort());
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
    const odd = stubApp({ listAlerts: jest.fn().mockRejectedValue(new ConflictError('nothing')) });
    expect((await request(odd.app).get('/v1/alerts').set(AUTH)).status).toBe(409);
    expect(() => expectAnswersMatchDocument()).toThrow(
      /GET \/v1\/alerts answered 409, which the document does not list/,
    );
  });
});
