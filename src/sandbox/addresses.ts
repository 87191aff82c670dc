/**
 * Realistic, unique wallet addresses: Ethereum `0x` + 40 lower-case hex digits; Tron base58check of
 * 0x41 followed by a 20-byte account (34 characters, starting with `T`).
 */
import { createHash } from 'node:crypto';
import { NETWORKS } from '../domain/vocabulary';
import type { Random } from './random';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

export function base58Decode(text: string): Buffer {
  let value = 0n;
  for (const character of text) {
    const digit = BASE58_ALPHABET.indexOf(character);
    if (digit < 0) throw new Error('not a base58 string');
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const character of text) {
    if (character !== '1') break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
}

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

export function base58CheckEncode(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58Encode(Buffer.concat([payload, checksum]));
}

/** True when `address` is a well-formed Tron address (version byte 0x41 and a valid checksum). */
export function isTronAddress(address: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  const bytes = base58Decode(address);
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
  return checksum.equals(bytes.subarray(21));
}

export const isEthereumAddress = (address: string): boolean => /^0x[0-9a-f]{40}$/.test(address);

export function ethereumAddress(random: Random): string {
  return `0x${random.bytes(20).toString('hex')}`;
}

export function tronAddress(random: Random): string {
  return base58CheckEncode(Buffer.concat([Buffer.from([0x41]), random.bytes(20)]));
}

/** A fresh address for a network name; the caller guarantees uniqueness against its own records. */
export function addressFor(networkName: string, random: Random): string {
  if (networkName === NETWORKS.tron) return tronAddress(random);
  return ethereumAddress(random);
}

/** A fake on-chain transaction hash in the network's usual form. */
export function transactionHash(networkName: string, random: Random): string {
  const hex = random.bytes(32).toString('hex');
  return networkName === NETWORKS.tron ? hex : `0x${hex}`;
}
