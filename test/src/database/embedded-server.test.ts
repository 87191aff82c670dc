/**
 * The embedded server starts on a data folder below private folders (mktemp's 0700, as CI and `npm start` in a fresh
 * temporary folder give it): as root it runs as `nobody`, so each private ancestor must let others traverse it, and
 * nothing more.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../../src/database/embedded-server';

test('serves from a data folder two levels below a private folder, opening the ancestors to traversal only', async () => {
  const privateFolder = mkdtempSync(path.join(os.tmpdir(), 'embedded-pg-'));
  expect(statSync(privateFolder).mode & 0o777).toBe(0o700);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(privateFolder, 'data', 'postgres'),
    startTimeoutMs: 60_000,
  });
  try {
    const client = new Client({ connectionString: server.url });
    await client.connect();
    try {
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
    const asRoot = process.getuid?.() === 0;
    // Others may traverse (as root the server needs it) but never list or write.
    expect(statSync(privateFolder).mode & 0o777).toBe(asRoot ? 0o701 : 0o700);
  } finally {
    await server.stop();
    rmSync(privateFolder, { recursive: true, force: true });
  }
}, 120_000);
