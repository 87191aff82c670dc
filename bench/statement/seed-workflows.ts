/**
 * Bench-only stand-ins for closed ramps: workflows of the ramp types that return the final state they are given, so
 * that the statement leg can fill visibility with thousands of ended ramps in a minute or two. The seed worker bundles
 * this file alone, on a task queue of its own, never beside the product's workflows.
 */
export function onRampWorkflow(finalState: unknown): Promise<unknown> {
  return Promise.resolve(finalState);
}

export function offRampWorkflow(finalState: unknown): Promise<unknown> {
  return Promise.resolve(finalState);
}
