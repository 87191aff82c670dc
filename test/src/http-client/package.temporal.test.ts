/**
 * `ramp-orchestrator/http` as a client's backend gets it: `npm pack` (whose `prepare` builds dist/), the tarball
 * installed into a scratch project in a temporary folder, and the TypeScript example of docs/integration.md, read
 * from the document, type-checked there against the installed package and run against a running API over the real
 * stack (dev server, worker, sandbox over HTTP).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { startApiServer, type RunningApiServer } from '../../../src/api/server';
import { SecretString } from '../../../src/secrets/secret-string';
import { type Stack, startStack } from '../../helpers/client-stack';
import { docExample } from '../../helpers/doc-examples';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..');
const API_KEY = 'package-test-api-key-7d41e0';

describe('ramp-orchestrator/http from a packed tarball', () => {
  let stack: Stack;
  let api: RunningApiServer;
  const scratch = mkdtempSync(path.join(tmpdir(), 'ramp-http-client-'));

  beforeAll(async () => {
    stack = await startStack();
    api = await startApiServer({
      config: {
        port: 0,
        host: '127.0.0.1',
        apiKey: new SecretString(API_KEY),
        idempotencyRetentionMs: 86_400_000,
      },
      ramp: stack.ramp,
      ledger: stack.database.db,
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await api.close();
    await stack.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('npm pack builds and packs dist; the tarball installs; the guide example type-checks and calls the API', async () => {
    const began = Date.now();
    const packed = await run('npm', ['pack', '--pack-destination', scratch, '--silent'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const tarball = readdirSync(scratch).find((file) => file.endsWith('.tgz'));
    expect(tarball).toBe(packed.stdout.trim().split('\n').at(-1));
    const listing = (
      await run('tar', ['-tzf', path.join(scratch, tarball!)], { maxBuffer: 16 * 1024 * 1024 })
    ).stdout;
    expect(listing).toContain('package/dist/src/http-client/index.js');
    expect(listing).toContain('package/dist/src/http-client/index.d.ts');
    expect(listing).not.toMatch(/package\/src\//);
    const packedIn = Date.now() - began;

    writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({ name: 'client-backend', version: '1.0.0', private: true }),
    );
    await run(
      'npm',
      [
        'install',
        `./${tarball!}`,
        '--omit=dev',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
      ],
      { cwd: scratch, maxBuffer: 16 * 1024 * 1024 },
    );
    const installedIn = Date.now() - began - packedIn;

    writeFileSync(path.join(scratch, 'example.ts'), docExample('typescript'));
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        },
        files: ['example.ts'],
      }),
    );
    // Typed from the installed package alone: its declarations resolve through its exports map.
    await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch],
      {
        cwd: scratch,
      },
    );

    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'example.ts'],
      {
        cwd: scratch,
        env: { ...process.env, RAMP_API_URL: api.url, RAMP_API_KEY: API_KEY },
        timeout: 60_000,
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^deposit address \S+, \S+$/);
    expect(lines[1]).toMatch(/^100 USDT -> \d+(\.\d+)? MXN until \d{4}-/);
    expect(lines[2]).toMatch(/^on-ramp order-[0-9a-f-]{36} started awaiting-order$/);
    expect(lines).toContain('unknown order reference: not_found');
    const wallet = await stack.ramp.getDepositWallet('user-42');
    expect(lines[0]).toContain(wallet!.addresses[0]!.address);
    console.log(`npm pack (with prepare) ${packedIn} ms, install ${installedIn} ms`);
  }, 600_000);
});
