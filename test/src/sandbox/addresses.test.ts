import {
  base58Decode,
  isTronAddress,
  tronAddress,
  ethereumAddress,
  isEthereumAddress,
} from '../../../src/sandbox/addresses';
import { Random } from '../../../src/sandbox/random';

describe('addresses', () => {
  it('generates Tron base58check addresses with the 0x41 version byte and Ethereum hex addresses', () => {
    const random = new Random(7);
    for (let index = 0; index < 50; index += 1) {
      const tron = tronAddress(random);
      expect(tron).toHaveLength(34);
      expect(isTronAddress(tron)).toBe(true);
      expect(base58Decode(tron)[0]).toBe(0x41);
      expect(isEthereumAddress(ethereumAddress(random))).toBe(true);
    }
    // A well-known real Tron address (the USDT TRC-20 contract) passes the same check; a mangled one fails.
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
  });

  it('is repeatable for a seed', () => {
    expect(new Random(5).uuid()).toBe(new Random(5).uuid());
    expect(new Random(5).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
