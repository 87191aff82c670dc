/**
 * The build's second step (`npm run build`, after tsc): bundles the compiled workflows into dist/workflow-bundle.js,
 * which the compiled worker loads as its workflowBundle instead of running webpack at every start.
 */
import { writeFile } from 'node:fs/promises';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PREBUILT_BUNDLE_PATH, WORKFLOWS_PATH } from '../temporal/worker';
import { runMain } from './run';

async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: new DefaultLogger('WARN'),
  });
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  process.stdout.write(`workflow bundle: ${PREBUILT_BUNDLE_PATH} (${Math.round(code.length / 1024)} kB)\n`);
}

runMain(main, { failurePrefix: 'workflow bundle failed: ' });
