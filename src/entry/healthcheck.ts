/**
 * The image's HEALTHCHECK: GET HEALTHCHECK_URL (default http://127.0.0.1:8080/healthz), exit 0 on a 2xx within
 * 4 s, 1 otherwise. Plain node, since the slim image has no curl. The receiver's certificate is its own (often
 * self-signed), and the check only asks whether this container answers, so it is not verified here.
 */
import http from 'node:http';
import https from 'node:https';

const url = new URL(process.env.HEALTHCHECK_URL ?? 'http://127.0.0.1:8080/healthz');
const get = url.protocol === 'https:' ? https.get : http.get;
const request = get(url, { timeout: 4000, rejectUnauthorized: false }, (response) => {
  response.resume();
  process.exit(
    response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300 ? 0 : 1,
  );
});
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
  process.stderr.write(`healthcheck ${url.origin}${url.pathname}: ${error.message}\n`);
  process.exit(1);
});
