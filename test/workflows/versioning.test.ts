/**
 * Each workflow type declares, beside itself, how it meets a release; the release command moves the long-lived ones
 * by LONG_LIVED_WORKFLOW_TYPES, so the two must name the same types.
 */
import * as workflows from '../../workflows';
import { LONG_LIVED_WORKFLOW_TYPES, WORKFLOW_TYPES } from '../../src/domain/ids';
import { moveToCurrentVersionSignal } from '../../workflows/shared/messages';
import type { DeclaredWorkflow } from '../../workflows/shared/versioning';

const declared = Object.entries(workflows).map(([name, workflow]) => ({
  name,
  behaviour: (workflow as DeclaredWorkflow).releaseBehaviour,
  options: (workflow as { workflowDefinitionOptions?: unknown }).workflowDefinitionOptions,
}));

describe('how each workflow type meets a release', () => {
  test('every workflow type declares its behaviour and its pinning', () => {
    expect(declared.map(({ name }) => name).sort()).toEqual(Object.values(WORKFLOW_TYPES).sort());
    for (const workflow of declared) {
      expect({ name: workflow.name, declared: workflow.behaviour !== undefined }).toEqual({
        name: workflow.name,
        declared: true,
      });
      expect(typeof workflow.options).toBe('function');
    }
  });

  test('the types that move at continue-as-new are the ones a release moves', () => {
    const moving = declared
      .filter(({ behaviour }) => behaviour === 'pinned, moves at continue-as-new')
      .map(({ name }) => name);
    expect(moving.sort()).toEqual([...LONG_LIVED_WORKFLOW_TYPES].sort());
  });

  test("a release's signal keeps its name (running workflows handle it by name)", () => {
    expect(moveToCurrentVersionSignal.name).toBe('moveToCurrentVersion');
  });
});
