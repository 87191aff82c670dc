import {
  extraWalletCount,
  unansweredRequests,
  unconfirmedCreations,
  withAnswer,
  withRequest,
} from '../../../workflows/wallet-journal';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';

describe('wallet-creation journal rules', () => {
  test('a request is recorded once, however often its signal arrives', () => {
    const once = withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0);
    const twice = withRequest(once, { requestId: 'r/1#1', attempt: 1 }, T1);
    expect(twice).toEqual([{ requestId: 'r/1#1', attempt: 1, requestedAt: T0 }]);
  });

  test('an answer settles its own request only, and keeps the first answer', () => {
    let requests = withRequest(
      withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0),
      { requestId: 'r/1#2', attempt: 2 },
      T0,
    );
    requests = withAnswer(requests, { requestId: 'r/1#2', attempt: 2, walletId: 'w-2' }, T1);
    requests = withAnswer(requests, { requestId: 'r/1#2', attempt: 2, walletId: 'w-other' }, T1);
    expect(requests.map((entry) => entry.answeredWalletId)).toEqual([undefined, 'w-2']);
  });

  test('an answer for a request the journal never saw (its signal lost) is recorded as answered', () => {
    expect(withAnswer([], { requestId: 'r/1#3', attempt: 3, walletId: 'w-3' }, T1)).toEqual([
      { requestId: 'r/1#3', attempt: 3, requestedAt: T1, answeredWalletId: 'w-3' },
    ]);
  });

  test('answers of the older journal format (no request ID) change nothing', () => {
    const requests = withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0);
    expect(withAnswer(requests, { attempt: 1, walletId: 'w-1' }, T1)).toEqual(requests);
  });

  test('while a creation is in flight its newest request is not yet unanswered; earlier ones are', () => {
    const requests = withRequest(
      withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0),
      { requestId: 'r/1#2', attempt: 2 },
      T1,
    );
    expect(unansweredRequests(requests, true).map((entry) => entry.requestId)).toEqual(['r/1#1']);
    expect(unansweredRequests(requests, false).map((entry) => entry.requestId)).toEqual(['r/1#1', 'r/1#2']);
  });

  test('unconfirmed creations: entries of the older journal are kept, every unanswered request is listed, answered ones leave', () => {
    const legacy = [{ attempt: 1, recordedAt: T0 }];
    let requests = withRequest(
      withRequest([], { requestId: 'r/2#1', attempt: 1 }, T0),
      { requestId: 'r/2#2', attempt: 2 },
      T1,
    );
    requests = withAnswer(requests, { requestId: 'r/2#2', attempt: 2, walletId: 'w' }, T1);
    const listed = unconfirmedCreations(
      [...legacy, { attempt: 9, recordedAt: T0, requestId: 'stale' }],
      requests,
      false,
    );
    expect(listed).toEqual([
      { attempt: 1, recordedAt: T0 },
      { attempt: 1, recordedAt: T0, requestId: 'r/2#1' },
    ]);
    // A late answer for the first request (a slow attempt) turns it from "may exist" into a known wallet.
    const answered = withAnswer(requests, { requestId: 'r/2#1', attempt: 1, walletId: 'w-late' }, T1);
    expect(unconfirmedCreations(listed, answered, false)).toEqual([{ attempt: 1, recordedAt: T0 }]);
  });

  test('extra wallets count orphans with a known ID and unconfirmed creations', () => {
    expect(extraWalletCount([], undefined)).toBe(0);
    expect(
      extraWalletCount([{ walletId: 'o', reason: 'r', recordedAt: T0 }], [{ attempt: 1, recordedAt: T0 }]),
    ).toBe(2);
  });
});
