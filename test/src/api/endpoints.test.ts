/**
 * The endpoints declared in src/api/routes against everything that follows from them: the OpenAPI document lists
 * each under its method and path and nothing else, the app serves each, every POST takes an Idempotency-Key under
 * its operationId, and each method of the HTTP client calls the endpoint of its name. Nothing here is kept by hand:
 * the routes come from the declarations, the client's methods from its class.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '../../../src/api/app';
import { concreteFirst } from '../../../src/api/endpoint';
import { DOCUMENT_PATH, openApiDocument } from '../../../src/api/openapi';
import { ENDPOINTS } from '../../../src/api/routes';
import { RampHttpClient } from '../../../src/http-client';
import { SecretString } from '../../../src/secrets/secret-string';
import { API_KEY, AUTH, freshKeys, stubRamp } from '../../helpers/api-stub';

/** A request path of a template: each parameter filled with a value every parameter's schema takes. */
const pathOf = (template: string) => template.replace(/\{[^}]+\}/g, 'x-1');
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}(\\?.*)?$`);

/** The app without the answer check: the stubbed client answers nothing, so no answer here is a real one. */
function bareApp() {
  const keys = freshKeys();
  const app = createApiApp({
    ramp: stubRamp(),
    idempotency: keys,
    apiKey: new SecretString(API_KEY),
    logger: pino({ level: 'silent' }),
  });
  return { app, keys };
}

describe('the declared endpoints', () => {
  test('are the operations of the OpenAPI document, under their methods and paths, with their operationIds', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => `${method} ${path} ${operation.operationId}`),
    );
    expect(documented.sort()).toEqual(
      [
        ...ENDPOINTS.map(({ method, path, operationId }) => `${method} ${path} ${operationId}`),
        `get ${DOCUMENT_PATH} openApiDocument`,
      ].sort(),
    );
    expect(new Set(ENDPOINTS.map((endpoint) => endpoint.operationId)).size).toBe(ENDPOINTS.length);
  });

  test('are each served by the app (a route it lacks answers 404 "No route")', async () => {
    const { app } = bareApp();
    for (const { method, path } of ENDPOINTS) {
      const response = await request(app)[method](pathOf(path)).set(AUTH);
      const answer = `${response.status} ${response.body?.error?.message ?? ''}`;
      expect({ method, path, answer }).not.toEqual({
        method,
        path,
        answer: expect.stringMatching(/^(404 No route|405 )/),
      });
    }
  });

  test('take an Idempotency-Key on every POST, kept under the operationId', async () => {
    const { app, keys } = bareApp();
    const posts = ENDPOINTS.filter((endpoint) => endpoint.method === 'post');
    expect(posts.length).toBeGreaterThan(0);
    for (const { path, operationId } of posts) {
      keys.claim.mockClear();
      await request(app)
        .post(pathOf(path))
        .set({ ...AUTH, 'Idempotency-Key': `key-${operationId}` });
      expect(keys.claim).toHaveBeenCalledWith(
        expect.objectContaining({ route: operationId, key: `key-${operationId}` }),
      );
    }
  });

  test('are what the HTTP client calls: each of its methods the endpoint of its name', async () => {
    const seen: Array<{ method: string; url: string }> = [];
    const server = http.createServer((req, res) => {
      seen.push({ method: req.method!.toLowerCase(), url: req.url! });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new RampHttpClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retries: 0 });
      const methods = Object.getOwnPropertyNames(RampHttpClient.prototype).filter(
        (name) => name !== 'constructor',
      );
      expect(methods.length).toBeGreaterThan(10);
      const byPath = concreteFirst(ENDPOINTS);
      for (const name of methods) {
        const call = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!;
        // Every argument a string: a path value, or a body the stand-in does not read.
        await call.apply(
          client,
          Array.from({ length: call.length }, () => 'x-1'),
        );
        const { method, url } = seen.at(-1)!;
        const called = byPath.find(
          (endpoint) => endpoint.method === method && templatePattern(endpoint.path).test(url),
        );
        expect([name, called?.operationId]).toEqual([name, name]);
      }
      expect(seen).toHaveLength(methods.length);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
