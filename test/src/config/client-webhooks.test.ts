/** CLIENT_WEBHOOK_URLS: the plain form, and the `#types=` fragment that gives an endpoint its event types. */
import { loadClientWebhookConfig } from '../../../src/config/client-webhooks';
import { endpointReceives } from '../../../src/domain/outcome-events';

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const load = (urls: string) =>
  loadClientWebhookConfig({ CLIENT_WEBHOOK_URLS: urls, CLIENT_WEBHOOK_SECRET: SECRET });

describe('endpoints and their event types', () => {
  test('a plain URL receives every type; a #types= fragment lists types or <subject>.*, and is never sent', () => {
    const [all, some] = load(
      'https://a.example/hook,https://b.example/ramps?x=1#types=off_ramp.settled+on_ramp.*',
    ).endpoints;
    expect(all!.types).toBeUndefined();
    expect(some!.types).toEqual(['off_ramp.settled', 'on_ramp.*']);
    expect(some!.url.reveal()).toBe('https://b.example/ramps?x=1');
    expect(some!.label).toBe('endpoint 2 (b.example)');
    for (const type of ['off_ramp.settled', 'on_ramp.created', 'on_ramp.settled', 'test.ping'])
      expect(endpointReceives(some!.types, type)).toBe(true);
    for (const type of ['off_ramp.created', 'deposit_wallet.created'])
      expect(endpointReceives(some!.types, type)).toBe(false);
    expect(endpointReceives(all!.types, 'deposit_wallet.created')).toBe(true);
  });

  test('an unknown type, an empty list or another fragment stops the start, naming the entry', () => {
    for (const [urls, message] of [
      ['https://a.example/h#types=off_ramp.paid', /entry 1 #types= must list .*unknown: off_ramp.paid/],
      ['https://a.example/h,https://b.example/h#types=', /entry 2 #types= must list/],
      ['https://a.example/h#section', /entry 1 may carry only a #types=/],
      ['https://a.example/h#types=bank.*', /unknown: bank\.\*/],
    ] as const)
      expect(() => load(urls)).toThrow(message);
  });
});
