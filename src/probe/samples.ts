/**
 * Every answer the probe saw, kept to be written out redacted: no token, CSRF value, passcode or e-mail address, and
 * no recipient URL path (it carries the receiver's secret). Redaction happens when the samples are read or written,
 * after the login, so the session's values are known to the scrubbing of src/secrets by then.
 *
 * A sample is `{ operation, method, route, status, body }`: `npm test` parses every sample of
 * test/fixtures/operator-samples/ with the product's schemas under the active profile (docs/operator.md).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type OperatorProfile, ROUTE_NAMES, type RouteName } from '../domain/operator-profile';
import { formatIssues } from '../domain/errors';
import { profileSchemas } from '../operator/profile-schemas';
import { REDACTED, redactKnownSecrets } from '../secrets/known-secrets';

export interface OperatorSample {
  /** The route name the answer came from (src/domain/operator-profile.ts), which decides its schema. */
  operation: string;
  method: string;
  /** The route template called, without its method. */
  route: string;
  status: number;
  body: unknown;
}

/** Keys whose values are credentials or personal data whatever they hold. */
const SECRET_KEY = /token|csrf|passcode|password|secret|e-?mail|authorization/i;
const URL_KEY = /^urls?$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

function redactText(text: string): string {
  return redactKnownSecrets(text).replace(EMAIL, REDACTED);
}

/** A URL down to its origin: the path of a recipient URL is the receiver's credential. */
function redactUrl(value: string): string {
  return URL.canParse(value) ? `${new URL(value).origin}/${REDACTED}` : REDACTED;
}

/** A JSON value with every credential, e-mail address and recipient URL path replaced by [REDACTED]. */
export function redactSample(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key)) return REDACTED;
    if (URL_KEY.test(key)) return redactUrl(value);
    return redactText(value);
  }
  if (Array.isArray(value)) return value.map((item) => redactSample(item, URL_KEY.test(key) ? key : ''));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        redactText(name),
        SECRET_KEY.test(name) && item !== null && typeof item !== 'object'
          ? REDACTED
          : redactSample(item, name),
      ]),
    );
  }
  return value;
}

export class SampleStore {
  readonly #raw: OperatorSample[] = [];

  save(sample: OperatorSample): void {
    this.#raw.push(sample);
  }

  /** The samples so far, redacted. */
  samples(): OperatorSample[] {
    return this.#raw.map((sample) => ({ ...sample, body: redactSample(sample.body) }));
  }

  /**
   * Writes each sample to `dir` as NN-operation-status.json, after removing the .json files a previous run left
   * there (the folder is the probe's own). Answers the files written.
   */
  writeTo(dir: string): string[] {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) if (name.endsWith('.json')) rmSync(path.join(dir, name));
    const width = String(this.#raw.length).length;
    return this.samples().map((sample, index) => {
      const file = path.join(
        dir,
        `${String(index + 1).padStart(width, '0')}-${sample.operation}-${sample.status}.json`,
      );
      writeFileSync(file, `${JSON.stringify(sample, null, 2)}\n`);
      return file;
    });
  }
}

/**
 * What the product's schemas under `profile` find wrong with a sample: its 2xx body read as its route's answer, an
 * error's body as the profile's error body. None for a sample the product would read.
 */
export function sampleIssues(sample: unknown, profile: OperatorProfile): string[] {
  const { operation, status, body } = (sample ?? {}) as Partial<OperatorSample>;
  if (typeof operation !== 'string' || !(ROUTE_NAMES as readonly string[]).includes(operation))
    return [`operation: must be one of ${ROUTE_NAMES.join(', ')}`];
  if (typeof status !== 'number') return ['status: must be the HTTP status of the answer'];
  const schemas = profileSchemas(profile);
  const schema =
    status >= 200 && status < 300
      ? schemas.responses[operation as RouteName]
      : status >= 400
        ? schemas.errorBody
        : undefined;
  if (!schema) return [`status: ${status} is neither an answer nor an error`];
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : formatIssues(parsed.error.issues, 'body.');
}
