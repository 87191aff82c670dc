/** The one mapping of the failures Node, express and body-parser raise for a bad request, and the deadline helper. */
import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import {
  clientErrorOf,
  isTemporalUnavailable,
  jsonErrorHandler,
  TemporalDeadlineError,
  withTemporalDeadline,
} from '../../../src/http/errors';

function app() {
  const served = express();
  served.post('/echo', express.json({ limit: '1kb' }), (req, res) => {
    res.json({ got: req.body as unknown });
  });
  served.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  served.get('/boom', () => {
    throw new Error('secret detail');
  });
  served.use(jsonErrorHandler({ component: 'test' }));
  return served;
}

describe('client errors are JSON 4xx', () => {
  test.each([
    [
      'malformed JSON',
      (r: request.Test) => r.set('content-type', 'application/json').send('{"a":'),
      400,
      'malformed_json',
    ],
    [
      'too large',
      (r: request.Test) =>
        r.set('content-type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(2000) })),
      413,
      'body_too_large',
    ],
    [
      'an unknown content encoding',
      (r: request.Test) =>
        r.set('content-type', 'application/json').set('content-encoding', 'foo').send('{}'),
      415,
      'unsupported_encoding',
    ],
    [
      'an unknown charset',
      (r: request.Test) => r.set('content-type', 'application/json; charset=latin1').send('{}'),
      415,
      'unsupported_encoding',
    ],
    [
      'a corrupt gzip body',
      (r: request.Test) =>
        r.set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"plain":true}'),
      400,
      'malformed_body',
    ],
  ])('%s', async (_what, build, status, code) => {
    const response = await build(request(app()).post('/echo'));
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: expect.any(String) } });
  });

  test('a real gzip body still works', async () => {
    const response = await request(app())
      .post('/echo')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      // As bytes: superagent would otherwise serialise a Buffer as JSON.
      .serialize((body: Buffer) => body as unknown as string)
      .send(gzipSync('{"a":1}'));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ got: { a: 1 } });
  });

  test.each(['%ZZ', 'a%FF', '%ED%A0%80', '%'])(
    'the path parameter %s is a 400 that does not repeat it',
    async (raw) => {
      const response = await request(app()).get(`/items/${raw}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'malformed_uri', message: expect.any(String) } });
      expect(response.text).not.toContain(raw);
    },
  );

  test('our own failure is a generic 500', async () => {
    const response = await request(app()).get('/boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: { code: 'internal_error', message: 'Internal error' } });
  });

  test('clientErrorOf: http-errors statuses are kept, 5xx and plain errors are not client errors', () => {
    expect(clientErrorOf({ status: 405 })).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(clientErrorOf({ statusCode: 431 })).toMatchObject({ status: 431, code: 'headers_too_large' });
    expect(clientErrorOf({ status: 500 })).toBeUndefined();
    expect(clientErrorOf(new Error('x'))).toBeUndefined();
    expect(clientErrorOf(undefined)).toBeUndefined();
  });
});

describe('withTemporalDeadline', () => {
  test('answers TemporalDeadlineError once the deadline passes, and gives the call its gRPC deadline', async () => {
    let deadlineGiven: number | Date | undefined;
    const temporal = {
      withDeadline<R>(deadline: number | Date, fn: () => Promise<R>) {
        deadlineGiven = deadline;
        return fn();
      },
    };
    const started = Date.now();
    const error = await withTemporalDeadline(100, () => new Promise<never>(() => undefined), temporal).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TemporalDeadlineError);
    expect(isTemporalUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(Number(deadlineGiven) - started).toBeGreaterThanOrEqual(100);
    expect(Number(deadlineGiven) - started).toBeLessThan(200);
    await expect(withTemporalDeadline(1000, () => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  test('gRPC DEADLINE_EXCEEDED and UNAVAILABLE, even as a cause, count as Temporal unavailable; other failures do not', () => {
    const grpc = (code: number) => Object.assign(new Error('grpc'), { code, details: 'd', metadata: {} });
    expect(isTemporalUnavailable(grpc(4))).toBe(true);
    expect(isTemporalUnavailable(new Error('wrapped', { cause: grpc(14) }))).toBe(true);
    expect(isTemporalUnavailable(grpc(3))).toBe(false);
    expect(isTemporalUnavailable(new Error('plain'))).toBe(false);
  });
});
