/**
 * Bundles the workflows. The build's second step (`npm run build`, after tsc) writes dist/workflow-bundle.js, which
 * the compiled worker loads as its workflowBundle instead of running webpack at every start, and the same workflows
 * with the tracing interceptors into dist/workflow-bundle-traced.js, for a worker that traces. A worker under tsx
 * runs it as a child process for the one bundle it needs: `--out <file> [--traced]`.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { WORKFLOW_TRACING_MODULE } from '../temporal/tracing';
import { PREBUILT_BUNDLE_PATH, PREBUILT_TRACED_BUNDLE_PATH, WORKFLOWS_PATH } from '../temporal/worker';
import { runMain } from './run';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, traced: { type: 'boolean', default: false } },
  });
  const tracing = [WORKFLOW_TRACING_MODULE];
  const bundles = values.out
    ? [{ path: values.out, workflowInterceptorModules: values.traced ? tracing : [] }]
    : [
        { path: PREBUILT_BUNDLE_PATH, workflowInterceptorModules: [] },
        { path: PREBUILT_TRACED_BUNDLE_PATH, workflowInterceptorModules: tracing },
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
