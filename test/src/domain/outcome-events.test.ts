import {
  OUTCOME_EVENT_TYPES,
  outcomeWebhookId,
  parseOutcomeWebhookId,
} from '../../../src/domain/outcome-events';

describe('outcome webhook IDs', () => {
  test('name their process and number, and read back to them', () => {
    const cases: Array<[string, number, string]> = [
      ['offramp/tx-1', 1, 'evt_offramp~tx-1~1'],
      ['onramp/ref.2:x@y', 12, 'evt_onramp~ref.2:x@y~12'],
      ['end-user/alice', 3, 'evt_end-user~alice~3'],
    ];
    for (const [workflowId, sequence, webhookId] of cases) {
      expect(outcomeWebhookId(workflowId, sequence)).toBe(webhookId);
      expect(parseOutcomeWebhookId(webhookId)).toEqual({ workflowId, sequence });
    }
  });

  test('anything else is not one of ours', () => {
    for (const text of [
      '',
      'evt_',
      'evt_offramp~tx-1',
      'evt_offramp~tx-1~0',
      'msg_offramp~tx~1',
      'evt_~x~1',
      'evt_a~~b~1',
      'evt_a b~1',
      'evt_a~1x',
    ]) {
      expect(parseOutcomeWebhookId(text)).toBeUndefined();
    }
  });

  test('event types are unique and name their subject', () => {
    expect(new Set(OUTCOME_EVENT_TYPES).size).toBe(OUTCOME_EVENT_TYPES.length);
    for (const type of OUTCOME_EVENT_TYPES)
      expect(type).toMatch(/^(deposit_wallet|off_ramp|on_ramp)\.[a-z_]+$/);
  });
});
