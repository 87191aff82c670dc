import { ApplicationFailure } from '@temporalio/common';
import { isVisibilityLiteral, visibilityLiteral } from '../../../src/temporal/visibility';

describe('values in visibility queries', () => {
  test('accepts identifiers, task queues and workflow IDs', () => {
    for (const value of ['wallet-1', 'ramp-orchestrator', 'end-user/alice', 'a.b_c:d@e', 'x'.repeat(200)]) {
      expect(isVisibilityLiteral(value)).toBe(true);
      expect(visibilityLiteral(value, 'wallet id')).toBe(value);
    }
  });

  test('refuses what could end the quoted string or start another clause', () => {
    for (const value of ["w' OR '1'='1", 'a b', 'a"b', 'a\\b', '', 'x'.repeat(201), 'wället', 'a\nb']) {
      expect(isVisibilityLiteral(value)).toBe(false);
    }
    let failure: unknown;
    try {
      visibilityLiteral("w' OR '1'='1", 'wallet id');
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: 'InvalidInput',
      nonRetryable: true,
      message: 'wallet id has characters a visibility query cannot carry',
    });
  });
});
