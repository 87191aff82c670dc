/**
 * `npm run sandbox [-- --port 4010]`: runs the sandbox operator until SIGINT/SIGTERM.
 * Prints its URL, the login e-mail (and the passcode when it is the public default) and the simulation
 * endpoints.
 */
import { loadSandboxConfig } from '../config/sandbox';
import { SIMULATION_ENDPOINTS } from './routes/simulation';
import { startSandbox } from './server';

function portArgument(argv: readonly string[]): number | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const value =
      argument === '--port'
        ? argv[index + 1]
        : argument.startsWith('--port=')
          ? argument.slice(7)
          : undefined;
    if (value === undefined) continue;
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port ${value} is not a port number`);
    return port;
  }
  return undefined;
}

async function main(): Promise<void> {
  const config = loadSandboxConfig(process.env);
  const port = portArgument(process.argv.slice(2));
  const sandbox = await startSandbox(port === undefined ? {} : { port });
  const passcode =
    process.env.SANDBOX_PASSCODE === undefined
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

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
