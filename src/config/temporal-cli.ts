/**
 * Where the Temporal binaries are when they are not to be found or installed (src/temporal/install-cli.ts):
 * `npm run temporal:install` prints both lines for a shell to keep.
 */
import { z } from 'zod';
import { type Env, parseSection } from './env';
import { setting } from './setting';

export const temporalCliEnv = z.object({
  TEMPORAL_CLI_PATH: setting(z.string().min(1).optional(), {
    group: 'local development',
    default: 'found or installed',
    meaning: 'The Temporal CLI that runs the dev server; unset: PATH, the project cache, then an install.',
    readBy: ['npm start', 'temporal:install'],
  }),
  TEMPORAL_TEST_SERVER_PATH: setting(z.string().min(1).optional(), {
    group: 'local development',
    default: 'found or installed',
    meaning: "Temporal's time-skipping test server; unset: the project cache, then an install.",
    readBy: ['temporal:install'],
  }),
});

export interface TemporalBinaryPaths {
  cli: string | undefined;
  testServer: string | undefined;
}

export function loadTemporalBinaryPaths(env: Env): TemporalBinaryPaths {
  const raw = parseSection('Temporal CLI', temporalCliEnv, env);
  return { cli: raw.TEMPORAL_CLI_PATH, testServer: raw.TEMPORAL_TEST_SERVER_PATH };
}
