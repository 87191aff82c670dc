import {
  addressesOf,
  chooseWallet,
  earlierRequestsInput,
  extraWalletAlert,
  extraWalletCount,
  extraWalletsDue,
  journalAnswer,
  journalNotSent,
  journalRequest,
  newWalletJournal,
  type OrphanWallet,
  recordOrphan,
  refreshUnconfirmed,
  reportedAfterNotSent,
  settleActivityAnswer,
  unansweredRequests,
  unconfirmedCreations,
  type WalletCreatedSignal,
  type WalletJournal,
  withAnswer,
  withNotSent,
  withRequest,
} from '../../../workflows/wallet-creation/journal';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';

describe('wallet-creation journal rules', () => {
  test('a request is recorded once, however often its signal arrives', () => {
    const once = withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0);
    const twice = withRequest(once, { requestId: 'r/1#1', attempt: 1 }, T1);
    expect(twice).toEqual([{ requestId: 'r/1#1', attempt: 1, requestedAt: T0 }]);
  });

  test("a request keeps how long it may be in flight; the latest unanswered one's end is what a new creation waits for", () => {
    let requests = withRequest([], { requestId: 'r/1#1', attempt: 1, inFlightForMs: 9_000 }, T0);
    requests = withRequest(requests, { requestId: 'r/1#2', attempt: 2, inFlightForMs: 1_000 }, T1);
    expect(requests[0]).toEqual({ requestId: 'r/1#1', attempt: 1, requestedAt: T0, inFlightForMs: 9_000 });
    const journal: WalletJournal = { requests, unconfirmed: [] };
    // T0 + 9 s is later than T1 + 1 s.
    expect(earlierRequestsInput(journal)).toEqual({ earlierRequestsOpenUntilMs: Date.parse(T0) + 9_000 });
    // Answered, the first no longer counts.
    journal.requests = withAnswer(requests, { requestId: 'r/1#1', attempt: 1, walletId: 'w-1' }, T1);
    expect(earlierRequestsInput(journal)).toEqual({ earlierRequestsOpenUntilMs: Date.parse(T1) + 1_000 });
    // A request known only from its not-sent or answer signal says nothing, and leaves the input as it was.
    journal.requests = withNotSent([], { requestId: 'r/1#1', attempt: 1 }, T0);
    expect(earlierRequestsInput(journal)).toEqual({});
    expect(earlierRequestsInput(newWalletJournal())).toEqual({});
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

  test('while a creation is in flight its newest request is not yet unanswered; earlier ones are', () => {
    const requests = withRequest(
      withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0),
      { requestId: 'r/1#2', attempt: 2 },
      T1,
    );
    expect(unansweredRequests(requests, true).map((entry) => entry.requestId)).toEqual(['r/1#1']);
    expect(unansweredRequests(requests, false).map((entry) => entry.requestId)).toEqual(['r/1#1', 'r/1#2']);
  });

  test('unconfirmed creations: every unanswered request is listed, answered ones leave', () => {
    let requests = withRequest(
      withRequest([], { requestId: 'r/2#1', attempt: 1 }, T0),
      { requestId: 'r/2#2', attempt: 2 },
      T1,
    );
    requests = withAnswer(requests, { requestId: 'r/2#2', attempt: 2, walletId: 'w' }, T1);
    expect(unconfirmedCreations(requests, false)).toEqual([
      { attempt: 1, recordedAt: T0, requestId: 'r/2#1' },
    ]);
    // A late answer for the first request (a slow attempt) turns it from "may exist" into a known wallet.
    const answered = withAnswer(requests, { requestId: 'r/2#1', attempt: 1, walletId: 'w-late' }, T1);
    expect(unconfirmedCreations(answered, false)).toEqual([]);
  });

  test('extra wallets count orphans with a known ID and unconfirmed creations', () => {
    expect(extraWalletCount([], [])).toBe(0);
    expect(
      extraWalletCount(
        [{ walletId: 'o', reason: 'r', recordedAt: T0 }],
        [{ attempt: 1, recordedAt: T0, requestId: 'r/1#1' }],
      ),
    ).toBe(2);
  });
});

const plainJournal = newWalletJournal;

const answer = (walletId: string, requestId: string, attempt = 1): WalletCreatedSignal => ({
  walletId,
  externalUserId: 'end-user:u-1',
  attempt,
  requestId,
});

describe("the owners' journal handlers", () => {
  test('a request signal records the request and lists it as unconfirmed unless its creation is in flight', () => {
    const inFlight = plainJournal();
    journalRequest(inFlight, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 1_000 }, true, T0);
    expect(inFlight.requests).toEqual([
      { requestId: 'r/1#1', attempt: 1, requestedAt: T0, inFlightForMs: 1_000 },
    ]);
    expect(inFlight.unconfirmed).toEqual([]);

    const done = plainJournal();
    journalRequest(done, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 1_000 }, false, T0);
    expect(done.unconfirmed).toEqual([{ attempt: 1, requestId: 'r/1#1', recordedAt: T0 }]);
  });

  test('a request journaled as not sent is neither unconfirmed nor waited for; the others still are', () => {
    const journal = plainJournal();
    journalRequest(journal, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 9_000 }, true, T0);
    journalNotSent(journal, { requestId: 'r/1#1', attempt: 1 }, true, T0);
    journalRequest(journal, { requestId: 'r/1#2', attempt: 2, inFlightForMs: 1_000 }, true, T1);
    expect(journal.requests?.[0]).toMatchObject({ requestId: 'r/1#1', notSent: true });
    // Only the second request is waited for: T1 + 1 s, where the first would have kept it open until T0 + 9 s.
    expect(earlierRequestsInput(journal)).toEqual({ earlierRequestsOpenUntilMs: Date.parse(T1) + 1_000 });
    refreshUnconfirmed(journal, false);
    expect(journal.unconfirmed).toEqual([{ attempt: 2, requestId: 'r/1#2', recordedAt: T1 }]);
    journalNotSent(journal, { requestId: 'r/1#2', attempt: 2 }, false, T1);
    expect(journal.unconfirmed).toEqual([]);
    expect(earlierRequestsInput(journal)).toEqual({});
  });

  test('a not-sent signal that overtakes its request is kept, and the request then changes nothing', () => {
    let requests = withNotSent([], { requestId: 'r/1#1', attempt: 1 }, T0);
    requests = withRequest(requests, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 9_000 }, T1);
    expect(requests).toEqual([{ requestId: 'r/1#1', attempt: 1, requestedAt: T0, notSent: true }]);
    expect(unansweredRequests(requests, false)).toEqual([]);
  });

  test('a not-sent signal that lands after the incident lowers the count reported, so the next extra wallet is raised', () => {
    // The incident counted one unconfirmed creation; the request then turns out not sent: none is known.
    const reported = reportedAfterNotSent(0, 1);
    expect(reported).toBe(0);
    // A later request without an answer makes one again, and one more than reported is due.
    expect(extraWalletsDue(1, reported)).toBe(true);
    expect(extraWalletsDue(1, 1)).toBe(false);
    // A count that did not go down is kept.
    expect(reportedAfterNotSent(0, 0)).toBe(0);
    expect(reportedAfterNotSent(3, 2)).toBe(2);
  });

  test('an answered request is never marked as not sent', () => {
    let requests = withRequest([], { requestId: 'r/1#1', attempt: 1 }, T0);
    requests = withAnswer(requests, { requestId: 'r/1#1', attempt: 1, walletId: 'w-1' }, T0);
    requests = withNotSent(requests, { requestId: 'r/1#1', attempt: 1 }, T1);
    expect(requests).toEqual([{ requestId: 'r/1#1', attempt: 1, requestedAt: T0, answeredWalletId: 'w-1' }]);
  });

  test('the first answer becomes the journaled wallet and settles its request; a different later one is an orphan', () => {
    const journal = plainJournal();
    journalRequest(journal, { requestId: 'r/1#1', attempt: 1, inFlightForMs: 1_000 }, true, T0);
    expect(journalAnswer(journal, answer('w-1', 'r/1#1'), true, T1)).toBeUndefined();
    expect(journal.journaled?.walletId).toBe('w-1');
    expect(journal.requests?.[0]?.answeredWalletId).toBe('w-1');
    expect(journal.unconfirmed).toEqual([]);

    // The same answer redelivered changes nothing; another wallet is reported for the owner to record.
    expect(journalAnswer(journal, answer('w-1', 'r/1#1'), false, T1)).toBeUndefined();
    expect(journalAnswer(journal, answer('w-2', 'r/1#2', 2), false, T1)).toBe('w-2');
    expect(journal.journaled?.walletId).toBe('w-1');
  });

  test("the activity's own answer settles its request even when the journal never saw it", () => {
    const journal = plainJournal();
    settleActivityAnswer(journal, { walletId: 'w-1', requestId: 'r/1#1' }, T0);
    expect(journal.requests).toEqual([
      { requestId: 'r/1#1', attempt: 0, requestedAt: T0, answeredWalletId: 'w-1' },
    ]);
  });

  test('the journaled wallet wins over the activity answer, which becomes an orphan when it differs', () => {
    const created = { walletId: 'w-2', externalUserId: 'x' };
    expect(chooseWallet(undefined, created)).toEqual({ chosen: created });
    const journaled = { walletId: 'w-1', externalUserId: 'x' };
    expect(chooseWallet(journaled, created)).toEqual({ chosen: journaled, orphanWalletId: 'w-2' });
    expect(chooseWallet(journaled, { ...journaled })).toEqual({ chosen: journaled });
  });

  test("the creating activity's addresses are used only for the wallet kept", () => {
    const addresses = [{ network: 'ethereum', address: '0xabc' }];
    expect(addressesOf({ walletId: 'w-1', addresses }, 'w-1')).toBe(addresses);
    // The journal kept another wallet: its addresses must be read, not taken from the orphan.
    expect(addressesOf({ walletId: 'w-2', addresses }, 'w-1')).toBeUndefined();
    // An answer without addresses (the journaled wallet itself).
    expect(addressesOf({ walletId: 'w-1' }, 'w-1')).toBeUndefined();
  });

  test('an orphan is recorded once, and never the wallet shown', () => {
    const orphans: OrphanWallet[] = [];
    expect(recordOrphan(orphans, 'w-shown', { walletId: 'w-shown', reason: 'r', recordedAt: T0 })).toBe(
      false,
    );
    expect(recordOrphan(orphans, 'w-shown', { walletId: 'w-2', reason: 'r', recordedAt: T0 })).toBe(true);
    expect(recordOrphan(orphans, undefined, { walletId: 'w-2', reason: 'again', recordedAt: T1 })).toBe(
      false,
    );
    expect(orphans).toEqual([{ walletId: 'w-2', reason: 'r', recordedAt: T0 }]);
  });

  test('an incident is due only when more extra wallets are known than were reported', () => {
    expect(extraWalletsDue(0, 0)).toBe(false);
    expect(extraWalletsDue(1, 0)).toBe(true);
    expect(extraWalletsDue(2, 2)).toBe(false);
    expect(extraWalletsDue(3, 2)).toBe(true);
  });

  test("the end user's incident names the user, the wallet shown and the label to close by", () => {
    const alert = extraWalletAlert(
      { kind: 'end-user', endUserId: 'u-1', shownWalletId: 'w-1' },
      'end-user/u-1',
      { orphanWallets: 1, unconfirmedCreations: 2 },
    );
    expect(alert).toEqual({
      kind: 'extra-wallet',
      message:
        'The operator may hold 3 deposit wallet(s) for end user u-1 besides the one shown (1 with a known ID, ' +
        '2 requested without an answer): close them with the operator by label end-user:u-1',
      workflowId: 'end-user/u-1',
      details: {
        walletOwner: 'end-user/u-1',
        endUserId: 'u-1',
        shownWalletId: 'w-1',
        orphanWallets: 1,
        unconfirmedCreations: 2,
      },
    });
    expect(
      extraWalletAlert({ kind: 'end-user', endUserId: 'u-1', shownWalletId: undefined }, 'end-user/u-1', {
        orphanWallets: 0,
        unconfirmedCreations: 1,
      }).details.shownWalletId,
    ).toBeNull();
  });

  test("the account's incident counts every account wallet besides the two recorded", () => {
    expect(
      extraWalletAlert({ kind: 'account' }, 'account-setup', { orphanWallets: 2, unconfirmedCreations: 1 }),
    ).toEqual({
      kind: 'extra-wallet',
      message:
        'The operator may hold 3 account wallet(s) besides the master and gas wallets recorded: close them with the operator by label',
      workflowId: 'account-setup',
      details: { walletOwner: 'account-setup', orphanWallets: 2, unconfirmedCreations: 1 },
    });
  });
});
