import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildIdProblem, packageVersion, workerVersion } from '../../../src/config/worker-version';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('the worker version', () => {
  test("the deployment is the task queue's, the build ID the package version unless the release names one", () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(packageVersion(ROOT)).toBe(version);
    expect(workerVersion('ramp-orchestrator')).toEqual({
      deploymentName: 'ramp-orchestrator',
      buildId: version,
    });
    expect(workerVersion('queue', '1.1.0-rc.1')).toEqual({ deploymentName: 'queue', buildId: '1.1.0-rc.1' });
  });

  test('a build ID is also a Kubernetes name suffix and label value', () => {
    for (const good of ['1.0.0', 'a', '2026-11-28.3', 'sha-0f80b2d'])
      expect({ good, problem: buildIdProblem(good) }).toEqual({ good, problem: undefined });
    for (const bad of ['', '1.0.0+build', 'V1', '-1', '1.', 'x'.repeat(64), 'a/b', 'a:b'])
      expect({ bad, problem: buildIdProblem(bad) }).toEqual({
        bad,
        problem: expect.stringContaining('not a build ID'),
      });
    expect(() => workerVersion('queue', 'Release_1')).toThrow('Invalid worker version');
  });
});
