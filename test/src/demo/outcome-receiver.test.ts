/**
 * The line `npm start`'s stand-in for the client's backend prints per delivery: an outcome event names its process
 * and status; a test.ping (POST /v1/events/test) has no process, so its line names none.
 */
import { describeDelivery, type ReceivedDelivery } from '../../../src/demo/outcome-receiver';

const delivery = (event: unknown, verified = true): ReceivedDelivery =>
  ({
    webhookId: 'evt_x~1',
    timestamp: '1700000000',
    body: JSON.stringify(event),
    headers: {},
    verified,
    ...(verified ? {} : { verifyError: 'No matching signature found' }),
    event,
    receivedAt: 0,
    answered: verified ? 204 : 400,
  }) as ReceivedDelivery;

describe('describeDelivery', () => {
  test('an outcome event names its process and status; a test.ping, its type only', () => {
    expect(
      describeDelivery(
        delivery({
          type: 'off_ramp.settled',
          timestamp: '2026-01-01T00:00:00.000Z',
          data: { workflowId: 'offramp/dep-1', endUserId: 'alice', status: 'settled', step: 'Settled' },
        }),
      ),
    ).toBe('[client backend] verified off_ramp.settled evt_x~1 offramp/dep-1: settled');
    const ping = {
      type: 'test.ping',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { message: 'A test event from ramp-orchestrator' },
    };
    expect(describeDelivery(delivery(ping))).toBe('[client backend] verified test.ping evt_x~1');
    expect(describeDelivery(delivery(ping, false))).toBe(
      '[client backend] NOT verified (No matching signature found) test.ping evt_x~1',
    );
    expect(describeDelivery(delivery(undefined, false))).toBe(
      '[client backend] NOT verified (No matching signature found) ? evt_x~1',
    );
  });
});
