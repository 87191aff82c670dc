import { inspect } from 'node:util';
import { REDACTED, registerSecret } from './known-secrets';

/**
 * A secret configuration value. It prints as `[REDACTED]` through JSON, util.inspect and string conversion,
 * so that logging a whole configuration object cannot leak it; `reveal()` is the one way to read it.
 */
export class SecretString {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
    // Known to the logger and to operator error messages, which scrub it wherever it turns up (e.g. echoed back).
    registerSecret(value);
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
