/**
 * `npm run demo -- --sandbox-url <url>`: plays the story `npm start` plays (account setup, gas, two users' wallets,
 * a quote, an off-ramp and an on-ramp to settlement, an off-ramp stranded for lack of gas until the gas wallet is
 * refilled) against a deployment that is already running: its workers, its receiver and a sandbox operator they
 * use. Prints each step, the summary table and where a statement of the deployment's own ramps begins; exit status 0
 * only if every scenario ended as expected. The production-shaped cluster test runs it against the compiled services.
 */
import { RampClient } from '../client/ramp-client';
import { loadDemoConfig } from '../config/demo';
import { SANDBOX_GAS_COSTS } from '../config/sandbox';
import { formatReadiness, formatSummary, runDemo } from '../demo/demo';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';

const COMMAND = defineCommand({
  usage: 'npm run demo --',
  summary:
    'Plays the demo story against a running deployment (TEMPORAL_* settings) whose workers use the sandbox operator at ' +
    '--sandbox-url, and prints the summary. Exit status 0 only if every scenario ended as expected.',
  flags: {
    'sandbox-url': {
      type: 'string',
      valueName: 'url',
      description: "the sandbox operator's base URL (required)",
    },
  },
  notes: ['DEMO_SCENARIO_TIMEOUT follows RAMP_STEP_DEADLINE unless set.'],
});

async function main(): Promise<number> {
  const sandboxUrl = commandFlags(COMMAND)['sandbox-url'];
  if (!sandboxUrl) throw new Error('--sandbox-url is required');
  const env = process.env;
  const { scenarioTimeoutMs } = loadDemoConfig(env);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const ramp = await RampClient.connect({ env });
  try {
    const outcome = await runDemo({
      ramp,
      sandboxUrl: sandboxUrl.replace(/\/+$/, ''),
      sandboxConfig: { gas: SANDBOX_GAS_COSTS },
      say,
      scenarioTimeoutMs,
    });
    say(`\n== Summary\n${formatSummary(outcome.results)}`);
    say(`\n${formatReadiness(outcome)}`);
    return outcome.results.every((result) => result.ok) ? 0 : 1;
  } finally {
    await ramp.close();
  }
}

runMain(main, { failurePrefix: 'demo failed: ' });
