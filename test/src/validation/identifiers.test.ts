/** The one rule for identifiers from outside: what it refuses, and that every ID in use still passes. */
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../../src/client/errors';
import { Random } from '../../../src/sandbox/random';
import {
  encodeRouteParameter,
  identifierIssue,
  type IdentifierKind,
  newEndUserIdIssue,
  newEndUserIdSchema,
  parseEndUserId,
  parseNewEndUserId,
  parseOrderReference,
  RouteParameterError,
} from '../../../src/validation/identifiers';

const KINDS: IdentifierKind[] = ['end user ID', 'order reference', 'resource ID', 'deposit transaction ID'];

describe('identifierIssue', () => {
  test.each([
    ['a lone high surrogate', '\ud800', /well-formed Unicode/],
    ['a lone low surrogate inside', 'tx-\udc00-1', /well-formed Unicode/],
    ['a control character', 'tx\u0000', /control or format/],
    ['a newline', 'tx\n1', /control or format/],
    ['a bidi override', 'tx\u202e1', /control or format/],
    ['a slash', 'a/b', /path separator/],
    ['a backslash', 'a\\b', /path separator/],
    ['a dot', '.', /must not be \. or \.\./],
    ['two dots', '..', /must not be \. or \.\./],
    ['percent-encoded dots', '%2e%2e', /ASCII letters/],
    ['a space', 'bad id', /ASCII letters/],
    ['a quote', "o'brien", /ASCII letters/],
    ['a non-ASCII letter', 'usuário', /ASCII letters/],
    ['a leading dash', '-x', /ASCII letters/],
    ['nothing', '', /1-\d+ characters/],
    ['a number', 42, /must be a string/],
  ])('refuses %s, naming the rule and not the value', (_what, value, rule) => {
    for (const kind of KINDS) {
      const issue = identifierIssue(value, kind);
      expect(issue).toMatch(rule);
      if (typeof value === 'string' && value.length > 2) expect(issue).not.toContain(value);
    }
  });

  test('lengths: 128 for end user IDs, 200 for the others', () => {
    expect(identifierIssue('u'.repeat(128), 'end user ID')).toBeUndefined();
    expect(identifierIssue('u'.repeat(129), 'end user ID')).toMatch(/1-128/);
    expect(identifierIssue('r'.repeat(200), 'order reference')).toBeUndefined();
    expect(identifierIssue('r'.repeat(201), 'resource ID')).toMatch(/1-200/);
  });

  test('accepts what the sandbox issues and what the product and its tests use', () => {
    const random = new Random(20260101);
    const sandboxIds = Array.from({ length: 200 }, () => random.uuid());
    for (const id of [...sandboxIds, randomUUID(), `tx-${randomUUID()}`, `thing-${randomUUID()}`]) {
      expect(identifierIssue(id, 'resource ID')).toBeUndefined();
      expect(identifierIssue(id, 'deposit transaction ID')).toBeUndefined();
    }
    for (const id of [
      'user-42',
      'demo-alice',
      'alice-1',
      'a.b_c:d@e-f',
      `user-${randomUUID().slice(0, 8)}`,
    ]) {
      expect(parseEndUserId(id)).toBe(id);
    }
    for (const reference of ['order-ref-1', 'clabe-ref-001', `ref-${randomUUID().slice(0, 12)}`, 'r1']) {
      expect(parseOrderReference(reference)).toBe(reference);
    }
  });

  test('parse* throws InvalidInputError with the kind and the rule', () => {
    expect(() => parseEndUserId('bad id')).toThrow(InvalidInputError);
    expect(() => parseEndUserId('bad id')).toThrow('Invalid end user ID');
    expect(() => parseOrderReference('..')).toThrow(
      /Invalid order reference: order reference: must not be \. or \.\./,
    );
  });
});

describe('an end user ID for something new', () => {
  const emailShaped = ['alice@example.com', 'a.b@c.mx', 'a@b@c.d', 'user@tenant.internal:1'];
  const opaque = ['user-42', 'a.b_c:d@e-f', 'user@tenant', 'team:42@eu-1', 'alice.example.com', randomUUID()];

  test('is never shaped like an e-mail address (a . after an @), and says so without repeating it', () => {
    for (const id of emailShaped) {
      const issue = newEndUserIdIssue(id);
      expect(issue).toMatch(/^must not be an e-mail address \(no \. after an @\)/);
      expect(issue).not.toContain(id);
      expect(() => parseNewEndUserId(id)).toThrow(
        /Invalid end user ID: end user ID: must not be an e-mail address/,
      );
      expect(newEndUserIdSchema.safeParse(id).success).toBe(false);
      // Reads and filters still take it: an end user named so before stays readable.
      expect(parseEndUserId(id)).toBe(id);
    }
    for (const id of opaque) {
      expect(newEndUserIdIssue(id)).toBeUndefined();
      expect(parseNewEndUserId(id)).toBe(id);
      expect(newEndUserIdSchema.safeParse(id).success).toBe(true);
    }
  });

  test('breaks the identifier rules first, with their words', () => {
    expect(newEndUserIdIssue('bad id')).toMatch(/ASCII letters/);
    expect(newEndUserIdIssue('u'.repeat(129))).toMatch(/1-128/);
    expect(newEndUserIdSchema.safeParse('bad id').error?.issues.map((issue) => issue.message)).toEqual([
      `must be ${'ASCII letters, digits and . _ : @ -, starting with a letter or digit'}`,
    ]);
  });
});

describe('encodeRouteParameter', () => {
  test('encodes everything that could change a path, and refuses what encoding cannot neutralise', () => {
    expect(encodeRouteParameter('id', 'a/b')).toBe('a%2Fb');
    expect(encodeRouteParameter('id', 'a\\b')).toBe('a%5Cb');
    expect(encodeRouteParameter('id', '%2e%2e')).toBe('%252e%252e');
    expect(encodeRouteParameter('id', 'a?b#c')).toBe('a%3Fb%23c');
    expect(encodeRouteParameter('id', 'a..b')).toBe('a..b');
    for (const value of ['.', '..', '\ud800', 'x\u0007', ' ', '']) {
      expect(() => encodeRouteParameter('id', value)).toThrow(RouteParameterError);
    }
  });
});
