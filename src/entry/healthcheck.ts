/**
 * The image's HEALTHCHECK: `node dist/src/entry/healthcheck.js --process worker|receiver|api` GETs that process's
 * /healthz on this machine, at the port its own settings give (WORKER_HEALTH_PORT, RECEIVER_PORT over HTTPS,
 * API_PORT); exit 0 on a 2xx within 4 s, 1 otherwise. Plain node, since the slim image has no curl. The receiver's
 * certificate is its own (often self-signed), and the check only asks whether this container answers, so it is not
 * verified here.
 */
import http from 'node:http';
import https from 'node:https';
import {
  HEALTHCHECKED_PROCESSES,
  type HealthcheckedProcess,
  healthcheckUrl,
} from '../observability/healthcheck-target';
import { commandFlags, defineCommand } from './args';

const COMMAND = defineCommand({
  usage: 'node dist/src/entry/healthcheck.js',
  summary: "Exits 0 when the process's /healthz answers 2xx within 4 s, 1 otherwise.",
  flags: {
    process: {
      type: 'string',
      valueName: HEALTHCHECKED_PROCESSES.join('|'),
      description: "the process of this container (default worker, the image's command)",
    },
  },
});

function fail(message: string): never {
  process.stderr.write(`healthcheck: ${message}\n`);
  process.exit(1);
}

const named = commandFlags(COMMAND).process ?? 'worker';
if (!(HEALTHCHECKED_PROCESSES as readonly string[]).includes(named))
  fail(`--process ${named} is not one of ${HEALTHCHECKED_PROCESSES.join(', ')}`);
let url: URL;
try {
  url = healthcheckUrl(named as HealthcheckedProcess, process.env);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const get = url.protocol === 'https:' ? https.get : http.get;
const request = get(url, { timeout: 4000, rejectUnauthorized: false }, (response) => {
  response.resume();
  process.exit(
    response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300 ? 0 : 1,
  );
});
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => fail(`${url.origin}${url.pathname}: ${error.message}`));
