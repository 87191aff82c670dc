import { errorMessage, formatIssues } from '../../../src/domain/errors';

describe('error text', () => {
  test('errorMessage: an Error gives its message, anything else its string form', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  test('formatIssues: path: message per issue, (root) for the value itself, after an optional prefix', () => {
    const issues = [
      { path: [], message: 'must be an object' },
      { path: ['gas', 'ETH'], message: 'must be a decimal string' },
      { path: ['urls', 0], message: 'must begin with https://' },
      { path: [Symbol('key')], message: 'odd key' },
    ];
    expect(formatIssues(issues)).toEqual([
      '(root): must be an object',
      'gas.ETH: must be a decimal string',
      'urls.0: must begin with https://',
      'Symbol(key): odd key',
    ]);
    expect(formatIssues(issues.slice(1, 2), '  ')).toEqual(['  gas.ETH: must be a decimal string']);
    expect(formatIssues([])).toEqual([]);
  });
});
