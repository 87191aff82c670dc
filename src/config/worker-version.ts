/**
 * Which version of which Worker Deployment a worker is (docs/architecture.md, "Releases: a version beside the old").
 * The deployment is the task queue's: installations that share a namespace differ by task queue, so each gets routing
 * of its own. The build ID is the release's: the package version the image carries, unless the release passes its
 * image tag (`npm run worker -- --build-id <tag>`, as deploy/kubernetes does). Nobody types either into a setting.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project-root';

export interface WorkerVersion {
  deploymentName: string;
  buildId: string;
}

/**
 * A build ID also names the version's Kubernetes resources (a name suffix) and labels them: lower-case letters,
 * digits, `.` and `-`, 63 at most, starting and ending with a letter or digit.
 */
const BUILD_ID = /^[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?$/;

/** What is wrong with a build ID, or undefined when it is one. */
export function buildIdProblem(buildId: string): string | undefined {
  return BUILD_ID.test(buildId)
    ? undefined
    : `${JSON.stringify(buildId)} is not a build ID: 1-63 lower-case letters, digits, "." or "-", starting and ending with a letter or digit`;
}

/** The `version` of the project's package.json: the release a build carries. */
export function packageVersion(projectRoot: string = PROJECT_ROOT): string {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof version !== 'string') throw new Error(`${projectRoot}/package.json has no version`);
  return version;
}

/** The version a worker of this task queue and release polls as; throws on a build ID that cannot be one. */
export function workerVersion(taskQueue: string, buildId: string = packageVersion()): WorkerVersion {
  const problem = buildIdProblem(buildId);
  if (problem) throw new Error(`Invalid worker version: ${problem}`);
  return { deploymentName: taskQueue, buildId };
}
