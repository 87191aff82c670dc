import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseOperatorProfile, readOperatorProfile } from '../../../src/config/operator-profile';
import { DEFAULT_OPERATOR_PROFILE } from '../../../src/domain/operator-profile';
import { VARIANT_PROFILE_FILE } from '../../helpers/operator-profiles';

const messages = (json: unknown): string[] => {
  const parsed = parseOperatorProfile(json);
  return (parsed.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the operator profile file', () => {
  test('an empty file is our assumptions; a part overrides only itself', () => {
    expect(parseOperatorProfile({})).toEqual({ profile: DEFAULT_OPERATOR_PROFILE });
    const parsed = parseOperatorProfile({
      $comment: 'what we learned on day one',
      csrfHeaderNames: ['X-IRS-CSRF-Token'],
      vocabulary: {
        transactionKinds: { sweep: { subtype: null } },
        transactionStatuses: { confirmed: 'CONFIRMED' },
      },
      links: { transaction: { orderId: 'conversionOrderId' } },
    });
    if (parsed.issues) throw new Error(parsed.issues.map((issue) => issue.message).join('; '));
    const { profile } = parsed;
    expect(profile.csrfHeaderNames).toEqual(['x-irs-csrf-token']);
    expect(profile.vocabulary.transactionKinds.sweep).toEqual({ type: 'AutoSweep', subtype: null });
    expect(profile.vocabulary.transactionKinds.deposit).toEqual(
      DEFAULT_OPERATOR_PROFILE.vocabulary.transactionKinds.deposit,
    );
    expect(profile.vocabulary.transactionStatuses.confirmed).toBe('CONFIRMED');
    expect(profile.vocabulary.transactionStatuses.mined).toBe('mined');
    expect(profile.links.transaction).toEqual({
      walletId: 'walletId',
      relatedTransactionId: 'relatedTransactionId',
      orderId: 'conversionOrderId',
    });
    expect(profile.routes).toEqual(DEFAULT_OPERATOR_PROFILE.routes);
  });

  test('every bad key is named, with its rule', () => {
    expect(messages({ vocabulary: { transactionStatuses: { confirmd: 'x' } } })).toEqual([
      'vocabulary.transactionStatuses: Unrecognized key: "confirmd"',
    ]);
    expect(
      messages({ paging: { defaultLimit: 0, pageParam: 'a b' }, errors: { statuses: { csrf: 200 } } }),
    ).toEqual([
      'errors.statuses.csrf: Too small: expected number to be >=400',
      'paging.pageParam: must be a field name (no spaces or dots)',
      'paging.defaultLimit: Too small: expected number to be >=1',
    ]);
    expect(messages({ routes: { getTransaction: 'GET /transactions/{transactionId}' } })).toEqual([
      'routes.getTransaction: must hold {id} once (the resource it is about)',
    ]);
    expect(messages({ routes: { createWallet: 'POST /wallets/{id}' } })).toEqual([
      'routes.createWallet: takes no placeholder',
    ]);
  });

  test('words, fields and statuses that could not be told apart are refused at the later key', () => {
    expect(messages({ vocabulary: { transactionStatuses: { mined: 'confirmed' } } })).toEqual([
      'vocabulary.transactionStatuses.confirmed: the same word as mined: each must be told apart',
    ]);
    expect(
      messages({
        vocabulary: { transactionKinds: { sweep: { type: 'Internal Transfer', subtype: 'gas-top-up' } } },
      }),
    ).toEqual([
      'vocabulary.transactionKinds.sweep: the same type and subtype as gasTopUp: each must be told apart',
    ]);
    expect(messages({ login: { fields: { passcode: 'email' } } })).toEqual([
      'login.fields.passcode: the same field name as email: each must be told apart',
    ]);
    expect(messages({ links: { transaction: { orderId: 'status' } } })).toEqual([
      'links.transaction.orderId: status is another field of a transaction',
    ]);
    expect(messages({ errors: { statuses: { notFound: 401 } } })).toEqual([
      'errors.statuses.notFound: must differ from the statuses of a refused token or CSRF value',
    ]);
    expect(messages({ paging: { defaultLimit: 200 } })).toEqual([
      'paging.defaultLimit: must not exceed paging.maxLimit',
    ]);
    // A refused token and a refused CSRF value may share a status: many operators answer 401 to both.
    expect(messages({ errors: { statuses: { csrf: 401 } } })).toEqual([]);
  });

  test('a file: read and checked, its name in the error', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'profile-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ links: { order: { transactionId: 'id' } } }));
    expect(() => readOperatorProfile(file)).toThrow(
      `Invalid operator profile ${file}:\n  links.order.transactionId: id is another field of an order`,
    );
    // The variant the sandbox tests serve is a valid profile that differs from ours in every part.
    const variant = readOperatorProfile(VARIANT_PROFILE_FILE);
    for (const part of [
      'routes',
      'csrfHeaderNames',
      'login',
      'errors',
      'paging',
      'vocabulary',
      'links',
    ] as const)
      expect(variant[part]).not.toEqual(DEFAULT_OPERATOR_PROFILE[part]);
  });
});
