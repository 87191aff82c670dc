/** The AES-256-GCM codec: rotation, tampering, no key material in errors. */
import { randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { parseEncryptionKeys } from '../../../src/config/encryption';
import { dataConverterFromConfig } from '../../../src/temporal/data-converter';
import { EncryptionCodec } from '../../../src/temporal/encryption-codec';

const k1 = randomBytes(32).toString('base64');
const k2 = randomBytes(32).toString('base64');
const json = (value: unknown): Payload => ({
  metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') },
  data: Buffer.from(JSON.stringify(value)),
});
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString();

describe('EncryptionCodec', () => {
  test('encrypts under the first key, names it in metadata, and decrypts after a rotation', async () => {
    const before = new EncryptionCodec(parseEncryptionKeys(`k1:${k1}`));
    const [old] = await before.encode([json({ address: 'TXYZsecretaddress', amount: '12.5' })]);
    expect(text(old!.metadata![METADATA_ENCODING_KEY])).toBe('binary/encrypted');
    expect(text(old!.metadata!['encryption-key-id'])).toBe('k1');
    expect(Buffer.from(old!.data!).toString('latin1')).not.toContain('TXYZsecretaddress');

    const after = new EncryptionCodec(parseEncryptionKeys(`k2:${k2},k1:${k1}`));
    const [fresh] = await after.encode([json('x')]);
    expect(text(fresh!.metadata!['encryption-key-id'])).toBe('k2');
    const [decoded] = await after.decode([old!]);
    expect(JSON.parse(text(decoded!.data))).toEqual({ address: 'TXYZsecretaddress', amount: '12.5' });
    expect(text(decoded!.metadata![METADATA_ENCODING_KEY])).toBe('json/plain');
    // Plain payloads pass through.
    const plain = json('plain');
    expect(await after.decode([plain])).toEqual([plain]);
  });

  test('an unknown key ID or tampered data fails without revealing key material', async () => {
    const codec = new EncryptionCodec(parseEncryptionKeys(`k1:${k1}`));
    const [encrypted] = await codec.encode([json('hello')]);
    const other = new EncryptionCodec(parseEncryptionKeys(`k9:${k2}`));
    await expect(other.decode([encrypted!])).rejects.toThrow(/unknown key ID "k1"/);
    const tampered = {
      ...encrypted!,
      data: Buffer.from(encrypted!.data!).map((byte, index) => (index === 20 ? byte ^ 1 : byte)),
    };
    const error = await codec.decode([tampered]).then(
      () => new Error('decoded'),
      (caught: Error) => caught,
    );
    expect(error.message).toMatch(/failed authentication/);
    expect(error.message).not.toContain(k1);
  });

  test('key parsing rejects bad entries without echoing the material; no keys means no converter', () => {
    expect(() => parseEncryptionKeys(`k1:${randomBytes(16).toString('base64')}`)).toThrow(/16 bytes, not 32/);
    expect(() => parseEncryptionKeys(`k1:${k1},k1:${k2}`)).toThrow(/appears twice/);
    try {
      parseEncryptionKeys(`bad id:${k1}`);
    } catch (error) {
      expect(String(error)).not.toContain(k1);
    }
    expect(dataConverterFromConfig({ keys: [] })).toBeUndefined();
    expect(JSON.stringify(parseEncryptionKeys(`k1:${k1}`))).toBe('[{"id":"k1"}]');
  });
});
