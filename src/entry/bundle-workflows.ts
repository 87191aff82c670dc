/**
 * The build's second step (`npm run build`, after tsc): bundles the compiled workflows into dist/workflow-bundle.js,
 * which the compiled worker loads as its workflowBundle instead of running webpack at every start, and the same
 * workflows with the tracing interceptors into dist/workflow-bundle-traced.js, for a worker that traces.
 */
import { writeFile } from 'node:fs/promises';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { WORKFLOW_TRACING_MODULE } from '../temporal/tracing';
import { PREBUILT_BUNDLE_PATH, PREBUILT_TRACED_BUNDLE_PATH, WORKFLOWS_PATH } from '../temporal/worker';
import { runMain } from './run';

async function main(): Promise<void> {
  const bundles = [
    { path: PREBUILT_BUNDLE_PATH, workflowInterceptorModules: [] },
    { path: PREBUILT_TRACED_BUNDLE_PATH, workflowInterceptorModules: [WORKFLOW_TRACING_MODULE] },
  ];
  for (const bundle of bundles) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: bundle.workflowInterceptorModules,
      logger: new DefaultLogger('WARN'),
    });
    await writeFile(bundle.path, code);
    process.stdout.write(`workflow bundle: ${bundle.path} (${Math.round(code.length / 1024)} kB)\n`);
  }
}

runMain(main, { failurePrefix: 'workflow bundle failed: ' });
