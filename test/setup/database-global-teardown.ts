import { rmSync } from 'node:fs';
import path from 'node:path';
import { stopTestDatabase } from './database-global-setup';

export default async function globalTeardown(): Promise<void> {
  await stopTestDatabase();
  if (process.env.TEST_DATABASE_DATA_DIR)
    rmSync(path.dirname(process.env.TEST_DATABASE_DATA_DIR), { recursive: true, force: true });
}
