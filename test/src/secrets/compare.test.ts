import { createHash } from 'node:crypto';
import { sameSecret, sameSha256Hex, sha256Hex } from '../../../src/secrets/compare';

describe('comparing secrets', () => {
  test('sameSecret: true only for the same text, whatever the lengths', () => {
    expect(sameSecret('s3cret-key', 's3cret-key')).toBe(true);
    expect(sameSecret('s3cret-key', 's3cret-kez')).toBe(false);
    expect(sameSecret('s3cret', 's3cret-key')).toBe(false);
    expect(sameSecret('', 's3cret-key')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('pässcode', 'pässcode')).toBe(true);
  });

  test('sha256Hex is the hex SHA-256 digest of the UTF-8 text', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('pässcode')).toBe(createHash('sha256').update('pässcode', 'utf8').digest('hex'));
  });

  test('sameSha256Hex: equal digests only; a digest of another length is simply unequal', () => {
    const digest = sha256Hex('token');
    expect(sameSha256Hex(digest, sha256Hex('token'))).toBe(true);
    expect(sameSha256Hex(digest, sha256Hex('other'))).toBe(false);
    expect(sameSha256Hex(digest, digest.slice(0, 32))).toBe(false);
    expect(sameSha256Hex(digest, '')).toBe(false);
  });
});
