import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: { stop(): Promise<void> } }).__temporalDevServer;
  await server?.stop();
  if (process.env.TEST_WORKFLOW_BUNDLE) rmSync(process.env.TEST_WORKFLOW_BUNDLE, { force: true });
}
