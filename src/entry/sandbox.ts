/**
 * `npm run sandbox [-- --port 4010]` (`-- --help` lists the flags): runs the sandbox operator until SIGINT/SIGTERM.
 * Prints its URL, the login e-mail (and the passcode when it is the public default) and the simulation
 * endpoints.
 */
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';
import { loadSandboxConfig, SANDBOX_DEFAULTS } from '../config/sandbox';
import { SIMULATION_ENDPOINTS } from '../sandbox/routes/simulation';
import { startSandbox } from '../sandbox/server';

const COMMAND = defineCommand({
  usage: 'npm run sandbox --',
  summary:
    'Runs the sandbox operator (the emulated operator API, its webhooks and simulation endpoints) until Ctrl-C.',
  flags: {
    port: {
      type: 'string',
      valueName: 'port',
      description: 'listen on this port (default SANDBOX_PORT, else 4010; 0 picks a free one)',
    },
  },
  notes: ['Every other setting is a SANDBOX_* variable (docs/configuration.md).'],
});

function portFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${value} is not a port number`);
  return port;
}

async function main(): Promise<void> {
  const config = loadSandboxConfig(process.env);
  const port = portFlag(commandFlags(COMMAND).port);
  const sandbox = await startSandbox({ base: config, ...(port === undefined ? {} : { port }) });
  const passcode =
    config.passcode === SANDBOX_DEFAULTS.passcode
      ? `${config.passcode} (default; set SANDBOX_PASSCODE to change it)`
      : '(from SANDBOX_PASSCODE)';
  const lines = [
    `Sandbox operator listening on ${sandbox.url}`,
    `  login e-mail: ${config.email}`,
    `  passcode:     ${passcode}`,
    `  seed: ${sandbox.config.seed}   time scale: ${sandbox.config.timeScale}`,
    '',
    'Simulation endpoints (no authentication):',
    ...SIMULATION_ENDPOINTS.map(
      ([method, path, description]) =>
        `  ${method.padEnd(6)} ${sandbox.url}${path}\n           ${description}`,
    ),
    '',
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the sandbox operator\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`failed to stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

runMain(main);
