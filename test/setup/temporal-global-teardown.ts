import { rmSync } from 'node:fs';
import path from 'node:path';
import databaseTeardown from './database-global-teardown';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: { stop(): Promise<void> } }).__temporalDevServer;
  await server?.stop();
  await databaseTeardown();
  if (process.env.TEST_WORKFLOW_BUNDLE)
    rmSync(path.dirname(process.env.TEST_WORKFLOW_BUNDLE), { recursive: true, force: true });
}
