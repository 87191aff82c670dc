/**
 * Every recorded history under test/histories must replay against today's workflow code without a
 * nondeterminism error: the guard that makes changes to running workflows safe (patch, then record a new one).
 * Record new histories with `RECORD_HISTORIES=1 npm test`; a history already recorded is kept
 * (test/helpers/histories.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { testServer } from '../helpers/temporal';

const HISTORIES_DIR = path.join(__dirname, '..', 'histories');

describe('replay of recorded workflow histories', () => {
  const files = readdirSync(HISTORIES_DIR).filter((file) => file.endsWith('.json'));

  test('there are recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  test.each(files)('%s replays deterministically', async (file) => {
    const history = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
    const workflowId = `replay-${file}`;
    // Throws DeterminismViolationError (failing the test) if today's code takes a different path.
    await Worker.runReplayHistory(
      { workflowBundle: { codePath: testServer().bundlePath } },
      history,
      workflowId,
    );
  });
});
