/**
 * `npm run operator:probe`: checks every assumption we make about the operator's API (OPERATOR_PROFILE, else our
 * defaults; docs/operator.md) against OPERATOR_BASE_URL with the account's login, and prints a table of what holds,
 * what does not (with what was seen) and what could not be checked (with what would check it). Every answer it saw is
 * saved redacted under .data/operator-samples/, ready to drop into test/fixtures/operator-samples/.
 *
 * Read-only unless --allow-writes: then it creates one wallet labelled ramp-orchestrator/probe (wallets cannot be
 * deleted) and, one at a time, a recipient of each kind, which it deletes again.
 */
import path from 'node:path';
import { loadObservabilityConfig } from '../config/observability';
import { loadOperatorConfig } from '../config/operator';
import { readOperatorProfile } from '../config/operator-profile';
import { PROJECT_ROOT } from '../config/project-root';
import { healthcheckUrl } from '../observability/healthcheck-target';
import type { ProbeOptions } from '../probe/context';
import { formatReport } from '../probe/report';
import { runProbe } from '../probe/run';
import { registerSecret } from '../secrets/known-secrets';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';

const COMMAND = defineCommand({
  usage: 'npm run operator:probe --',
  summary:
    "Checks each assumption about the operator's API against OPERATOR_BASE_URL and prints what holds, what does not " +
    'and what could not be checked. Saves every answer, redacted, under .data/operator-samples/. Read-only unless ' +
    '--allow-writes.',
  flags: {
    wallet: {
      type: 'string',
      valueName: 'ids',
      description:
        'wallets to read, comma-separated (npm run account:setup prints the master and gas wallets)',
    },
    transaction: { type: 'string', valueName: 'ids', description: 'transactions to read, comma-separated' },
    order: { type: 'string', valueName: 'ids', description: 'orders to read, comma-separated' },
    'allow-writes': {
      type: 'boolean',
      description: 'create one probe wallet and, one at a time, a recipient of each kind (deleted again)',
    },
    'login-profile': {
      type: 'string',
      valueName: 'file',
      description:
        'a profile whose login is known to work: used to check the rest when the login under test fails',
    },
    receiver: {
      type: 'string',
      valueName: 'url',
      description:
        "the receiver's base URL, for the headers of deliveries (default: RECEIVER_HOST and RECEIVER_PORT)",
    },
    samples: {
      type: 'string',
      valueName: 'dir',
      description: 'where to save the answers (default .data/operator-samples)',
    },
    json: { type: 'boolean', description: 'print the rows as JSON' },
  },
  notes: [
    'Reads OPERATOR_BASE_URL, OPERATOR_EMAIL, OPERATOR_PASSCODE, OPERATOR_PROFILE and METRICS_TOKEN.',
    'Exit status: 0 nothing contradicted, 2 something contradicted (or a usage error), 1 failure.',
  ],
});

const ids = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');

/** The receiver's /readyz: the URL given, else where this machine's receiver settings put it. */
function readyzUrl(given: string | undefined): string | undefined {
  try {
    const url = given ? new URL(given) : healthcheckUrl('receiver', process.env);
    url.pathname = '/readyz';
    return url.toString();
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const flags = commandFlags(COMMAND);
  const env = process.env;
  const config = loadOperatorConfig(env);
  // The e-mail is personal data: scrubbed from the samples and any message like the session's secrets.
  registerSecret(config.email);
  const readyz = readyzUrl(flags.receiver);
  const token = loadObservabilityConfig(env).metricsToken;
  const options: ProbeOptions = {
    baseUrl: config.baseUrl,
    email: config.email,
    passcode: config.passcode,
    timeoutMs: config.requestTimeoutMs,
    profile: config.profile,
    ...(flags['login-profile'] ? { loginProfile: readOperatorProfile(flags['login-profile']) } : {}),
    wallets: ids(flags.wallet),
    transactions: ids(flags.transaction),
    orders: ids(flags.order),
    allowWrites: flags['allow-writes'] === true,
    ...(readyz ? { receiver: { readyzUrl: readyz, ...(token ? { token } : {}) } } : {}),
  };
  const { report, samples } = await runProbe(options);
  const dir = path.resolve(flags.samples ?? path.join(PROJECT_ROOT, '.data', 'operator-samples'));
  const written = samples.writeTo(dir);
  process.stdout.write(
    flags.json === true
      ? `${JSON.stringify({ rows: report.rows, samples: written }, null, 2)}\n`
      : `Operator at ${config.baseUrl}\n\n${formatReport(report.rows)}\n${written.length} answers saved, redacted, in ${path.relative(process.cwd(), dir) || '.'}\n`,
  );
  process.exitCode = report.exitCode;
}

if (require.main === module) runMain(main, { failurePrefix: 'operator:probe failed: ' });
