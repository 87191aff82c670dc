/**
 * The incident store in the ledger, on the run's PostgreSQL: one open incident per key, the raise that opened it the
 * only one told to notify, a person's actions, pages newest first that list each incident once and stay under their
 * budget whatever the incidents hold, and the hand-over of a store workflow's incidents.
 */
import type { ClientContext } from '../../../src/client/context';
import { InvalidInputError, NotFoundError } from '../../../src/client/errors';
import { acknowledgeIncident, listAlerts, resolveIncident } from '../../../src/client/operations';
import {
  countOpenIncidents,
  INCIDENT_LIMITS,
  PAGE_BUDGET_BYTES,
  raiseIncident,
  resolveIncident as resolveInLedger,
  takeOverIncidents,
} from '../../../src/ledger/incidents';
import type { Incident, RaiseAlertRequest } from '../../../workflows/operations/alerts/types';
import { freshTestDatabase, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
let context: ClientContext;
beforeEach(async () => {
  database = await freshTestDatabase();
  context = { ledger: database.db } as ClientContext;
});
afterEach(() => database.close());

const request = (
  key: string,
  requestId: string,
  extra: Partial<RaiseAlertRequest> = {},
): RaiseAlertRequest => ({
  key,
  requestId,
  kind: 'ramp-exception',
  message: `exception of ${key}`,
  workflowId: `offramp/${key}`,
  details: { depositTransactionId: key, reason: 'off_quote' },
  ...extra,
});

describe('raising and resolving', () => {
  test('one open incident per key: the opening raise and its retries notify, others count', async () => {
    expect(await raiseIncident(database.db, request('k1', 'r1'))).toEqual({
      key: 'k1',
      isNew: true,
      notify: true,
      occurrences: 1,
    });
    expect(await raiseIncident(database.db, request('k1', 'r2'))).toEqual({
      key: 'k1',
      isNew: false,
      notify: false,
      occurrences: 2,
    });
    expect(await raiseIncident(database.db, request('k1', 'r1'))).toMatchObject({
      isNew: false,
      notify: true,
    });
    const [incident] = (await listAlerts(context)).data;
    expect(incident).toMatchObject({
      key: 'k1',
      kind: 'ramp-exception',
      depositTransactionId: 'k1',
      occurrences: 3,
      openedBy: 'r1',
    });

    expect(
      await resolveInLedger(database.db, { key: 'k1', requestId: 's1', resolution: 'settled' }),
    ).toMatchObject({ wasOpen: true, notify: true, incident: { key: 'k1', occurrences: 3 } });
    // Its retry notifies again; anyone else's resolve finds nothing open.
    expect(
      await resolveInLedger(database.db, { key: 'k1', requestId: 's1', resolution: 'settled' }),
    ).toMatchObject({ wasOpen: false, notify: true });
    expect(
      await resolveInLedger(database.db, { key: 'k1', requestId: 's2', resolution: 'settled' }),
    ).toMatchObject({ wasOpen: false, notify: false });
    // Raised again: a new incident.
    expect(await raiseIncident(database.db, request('k1', 'r3'))).toMatchObject({
      isNew: true,
      occurrences: 1,
    });
    expect((await listAlerts(context, { status: 'resolved' })).data).toEqual([
      expect.objectContaining({ key: 'k1', resolution: 'settled', resolvedBy: 's1', occurrences: 3 }),
    ]);
  });

  test('what an incident holds is cut to its limits', async () => {
    const details = Object.fromEntries(
      Array.from({ length: 50 }, (_, index) => [`field-${index}`, 'x'.repeat(5_000)]),
    );
    await raiseIncident(database.db, request('long', 'r', { message: 'm'.repeat(10_000), details }));
    const [incident] = (await listAlerts(context)).data;
    expect(incident!.message).toHaveLength(INCIDENT_LIMITS.message);
    expect(Object.keys(incident!.details)).toHaveLength(INCIDENT_LIMITS.detailKeys);
    expect(
      Object.values(incident!.details).every((value) => String(value).length <= INCIDENT_LIMITS.detailText),
    ).toBe(true);
  });

  test('a person acknowledges and resolves an open incident; one not open is NotFoundError', async () => {
    await raiseIncident(database.db, request('k1', 'r1'));
    const acknowledged = await acknowledgeIncident(context, { key: 'k1', by: ' ana ', reason: 'looking' });
    expect(acknowledged.acknowledged).toEqual({ by: 'ana', reason: 'looking', at: expect.any(String) });
    expect(Date.parse(acknowledged.acknowledged!.at)).not.toBeNaN();
    expect(await countOpenIncidents(database.db)).toEqual([
      { kind: 'ramp-exception', acknowledged: true, count: 1 },
    ]);
    const resolved = await resolveIncident(context, { key: 'k1', by: 'ana', reason: 'booked by hand' });
    expect(resolved).toMatchObject({ key: 'k1', resolution: 'booked by hand', resolvedBy: 'person/ana' });
    await expect(resolveIncident(context, { key: 'k1', by: 'ana', reason: 'again' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(acknowledgeIncident(context, { key: 'k1', by: '', reason: 'x' })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(await countOpenIncidents(database.db)).toEqual([]);
  });
});

describe('listing', () => {
  test('pages list every open incident once, newest first, and stay under the budget however long they are', async () => {
    const count = 250;
    for (let index = 0; index < count; index += 1)
      await raiseIncident(
        database.db,
        request(`k${String(index).padStart(3, '0')}`, `r${index}`, {
          message: 'm'.repeat(5_000),
          details: Object.fromEntries(
            Array.from({ length: 40 }, (_, field) => [`f${field}`, 'v'.repeat(400)]),
          ),
        }),
      );
    const seen: Incident[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await listAlerts(context, { limit: 100, ...(pageToken ? { pageToken } : {}) });
      const bytes = Buffer.byteLength(
        JSON.stringify({ data: page.data, pagination: { nextPageToken: page.nextPageToken } }),
      );
      expect(bytes).toBeLessThan(64 * 1024);
      expect(Buffer.byteLength(JSON.stringify(page.data))).toBeLessThanOrEqual(PAGE_BUDGET_BYTES + 2);
      expect(page.data.length).toBeGreaterThan(0);
      seen.push(...page.data);
      pageToken = page.nextPageToken ?? undefined;
      pages += 1;
    } while (pageToken);
    expect(pages).toBeGreaterThan(count / 100);
    expect(new Set(seen.map((incident) => incident.key)).size).toBe(count);
    const opened = seen.map((incident) => Date.parse(incident.firstSeen));
    expect(opened).toEqual([...opened].sort((a, b) => b - a));
  });

  test('a kind filters; a token of another filter, or none of ours, is NotFoundError; bad filters are refused', async () => {
    await raiseIncident(database.db, request('k1', 'r1'));
    await raiseIncident(database.db, request('g1', 'r2', { kind: 'gas-low', details: { network: 'n' } }));
    await raiseIncident(database.db, request('g2', 'r3', { kind: 'gas-low', details: { network: 'm' } }));
    const gas = await listAlerts(context, { kind: 'gas-low', limit: 1 });
    expect(gas.data.map((incident) => incident.key)).toEqual(['g2']);
    const next = await listAlerts(context, { kind: 'gas-low', limit: 1, pageToken: gas.nextPageToken! });
    expect(next).toEqual({ data: [expect.objectContaining({ key: 'g1' })], nextPageToken: null });
    await expect(listAlerts(context, { pageToken: gas.nextPageToken! })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(listAlerts(context, { pageToken: 'bm90LW91cnM' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(listAlerts(context, { kind: 'nonsense', status: 'closed', limit: 0 })).rejects.toMatchObject(
      {
        issues: [
          'status: must be one of open, resolved',
          expect.stringMatching(/^kind: must be one of /),
          'limit: must be an integer from 1 to 100',
        ],
      },
    );
  });
});

describe('the hand-over of an incident store workflow', () => {
  const held = (key: string, firstSeen: string, occurrences: number): Incident => ({
    key,
    kind: 'gas-low',
    network: 'networks/tron-mainnet',
    depositTransactionId: null,
    message: 'low',
    workflowId: 'ops/gas-monitor-1',
    lastWorkflowId: 'ops/gas-monitor-2',
    details: { network: 'networks/tron-mainnet' },
    firstSeen,
    lastSeen: firstSeen,
    occurrences,
    openedBy: 'ops/gas-monitor-1/run/1',
    acknowledged: { by: 'ana', reason: 'funding', at: firstSeen },
  });

  test('its incidents are taken as they were, once however often it hands over; an open key adds its occurrences', async () => {
    await raiseIncident(database.db, request('gas-low/b', 'r1', { kind: 'gas-low' }));
    const store = {
      open: [
        held('gas-low/a', '2025-06-01T00:00:00.000Z', 4),
        held('gas-low/b', '2025-06-01T00:00:00.000Z', 2),
      ],
      recentlyResolved: [
        {
          ...held('gas-low/a', '2025-05-01T00:00:00.000Z', 1),
          resolvedAt: '2025-05-02T00:00:00.000Z',
          resolution: 'funded',
          resolvedBy: 'person/ana',
        },
      ],
    };
    expect(await takeOverIncidents(database.db, store)).toEqual({ open: 2, resolved: 1 });
    expect(await takeOverIncidents(database.db, store)).toEqual({ open: 0, resolved: 0 });
    const open = (await listAlerts(context)).data;
    expect(open.map(({ key, occurrences }) => [key, occurrences])).toEqual(
      expect.arrayContaining([
        ['gas-low/a', 4],
        ['gas-low/b', 3],
      ]),
    );
    expect(open).toHaveLength(2);
    expect(open.find((incident) => incident.key === 'gas-low/a')).toMatchObject({
      acknowledged: { by: 'ana', reason: 'funding' },
      firstSeen: '2025-06-01T00:00:00.000Z',
    });
    expect((await listAlerts(context, { status: 'resolved' })).data).toEqual([
      expect.objectContaining({ key: 'gas-low/a', resolvedBy: 'person/ana' }),
    ]);
  });
});
