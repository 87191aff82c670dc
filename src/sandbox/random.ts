/**
 * A small seeded PRNG (mulberry32) so a sandbox run can be repeated: identifiers, addresses and fault
 * decisions come from here. Secrets (bearer and CSRF tokens) never do: they come from node:crypto.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** true with the given probability (always consumes exactly one draw, so decisions stay aligned). */
  chance(probability: number): boolean {
    const draw = this.next();
    return probability > 0 && draw < probability;
  }

  bytes(length: number): Buffer {
    const buffer = Buffer.alloc(length);
    for (let index = 0; index < length; index += 1) buffer[index] = Math.floor(this.next() * 256);
    return buffer;
  }

  /** A UUID v4 string. */
  uuid(): string {
    const bytes = this.bytes(16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
