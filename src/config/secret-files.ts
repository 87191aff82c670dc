/**
 * The `_FILE` form of every secret setting: `<NAME>_FILE` names a file whose contents are `<NAME>`'s value (a
 * mounted Kubernetes or Docker secret), so that no secret has to sit in the environment. A reading rule of the
 * secret settings, not settings of their own: giving both forms is refused, and one trailing newline (as `echo`
 * and most editors leave) is dropped. A file that cannot be read stops the process with its name and the reason,
 * never its contents.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { registerSecret } from '../secrets/known-secrets';
import { settingRegistry } from './setting';

export const FILE_SUFFIX = '_FILE';

/** The environment as env.ts reads it (it calls this module, so the type is restated here rather than imported). */
type Env = Record<string, string | undefined>;

/** The environment with each secret of `shape` read from its file where `<NAME>_FILE` is given, and the problems. */
export function withSecretFiles(
  shape: Record<string, z.ZodType>,
  env: Env,
): { env: Env; problems: string[] } {
  const resolved: Env = { ...env };
  const problems: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    if (!settingRegistry.get(field)?.secret) continue;
    const file = env[`${name}${FILE_SUFFIX}`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}: set ${name} or ${name}${FILE_SUFFIX}, not both`);
      continue;
    }
    try {
      const value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      registerSecret(value);
      resolved[name] = value;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      problems.push(`${name}${FILE_SUFFIX}: cannot read ${file} (${code})`);
    }
  }
  return { env: resolved, problems };
}
