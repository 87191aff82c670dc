import { randomBytes } from 'node:crypto';
import { parseEncryptionKeys } from '../../../src/config/encryption';
import {
  endUserSearchValue,
  endUserSearchValues,
  isEndUserPseudonym,
} from '../../../src/temporal/end-user-pseudonym';

const k1 = `k1:${randomBytes(32).toString('base64')}`;
const k2 = `k2:${randomBytes(32).toString('base64')}`;

describe('end user pseudonym (RampEndUserId)', () => {
  test('without keys the value is the end user ID', () => {
    expect(endUserSearchValue('user-1', undefined)).toBe('user-1');
    expect(endUserSearchValue('user-1', { keys: [] })).toBe('user-1');
    expect(endUserSearchValues('user-1', { keys: [] })).toEqual(['user-1']);
  });

  test('with keys: u- + 32 hex, stable, per user, from the active key', () => {
    const keys = parseEncryptionKeys(`${k1}`);
    const value = endUserSearchValue('user-1', { keys });
    expect(value).toMatch(/^u-[0-9a-f]{32}$/);
    expect(isEndUserPseudonym(value)).toBe(true);
    expect(value).not.toContain('user-1');
    expect(endUserSearchValue('user-1', { keys: parseEncryptionKeys(k1) })).toBe(value);
    expect(endUserSearchValue('user-2', { keys })).not.toBe(value);
    expect(endUserSearchValue('user-1', { keys: parseEncryptionKeys(`${k2},${k1}`) })).not.toBe(value);
  });

  test('after a rotation the search values cover every key and the clear ID', () => {
    const before = endUserSearchValue('user-1', { keys: parseEncryptionKeys(k1) });
    const keys = parseEncryptionKeys(`${k2},${k1}`);
    const values = endUserSearchValues('user-1', { keys });
    expect(values).toEqual([endUserSearchValue('user-1', { keys }), before, 'user-1']);
    expect(isEndUserPseudonym('user-1')).toBe(false);
  });
});
