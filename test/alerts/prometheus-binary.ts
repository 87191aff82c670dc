/**
 * Where Debian's prometheus package was unpacked for the tests: .ci/run extracts it under .cache/prometheus-<version>
 * (scripts/install-prometheus.sh); a machine with the package installed has it on PATH.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export function prometheusBinary(name: 'prometheus' | 'promtool' = 'prometheus'): string {
  const cache = path.join(ROOT, '.cache');
  const unpacked = existsSync(cache)
    ? readdirSync(cache)
        .filter((entry) => entry.startsWith('prometheus-'))
        .map((entry) => path.join(cache, entry, 'usr', 'bin', name))
        .filter((file) => existsSync(file))
    : [];
  if (unpacked.length > 0) return unpacked.sort().at(-1)!;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  throw new Error(
    `${name} not found: run scripts/install-prometheus.sh (Debian's prometheus package, under .cache/)`,
  );
}
