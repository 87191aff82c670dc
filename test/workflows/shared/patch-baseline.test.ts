import {
  BASELINE_OF_PATCH,
  type BaselinePatch,
  PATCH_BASELINE,
  takenByBaseline,
} from '../../../workflows/shared/patch-baseline';

const patches = Object.keys(BASELINE_OF_PATCH) as BaselinePatch[];

describe('patch baseline', () => {
  test('a run started without a baseline checks every patch (its history may predate any of them)', () => {
    for (const patch of patches) {
      expect(takenByBaseline({}, patch)).toBe(false);
      expect(takenByBaseline({ patchBaseline: 0 }, patch)).toBe(false);
    }
  });

  // A new patch enters one level above the baseline and is taken in a later release (docs/architecture.md): this
  // test then names it as still checked.
  test("the starters' baseline takes every patch listed, so the runs they start record no marker", () => {
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(takenByBaseline({ patchBaseline: PATCH_BASELINE }, patch)).toBe(true);
  });
});
