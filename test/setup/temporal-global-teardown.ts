import { rmSync } from 'node:fs';
import path from 'node:path';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: { stop(): Promise<void> } }).__temporalDevServer;
  await server?.stop();
  if (process.env.TEST_WORKFLOW_BUNDLE)
    rmSync(path.dirname(process.env.TEST_WORKFLOW_BUNDLE), { recursive: true, force: true });
}
