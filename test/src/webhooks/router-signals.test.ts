import { RouterSignalDeadlineError, RouterSignals } from '../../../src/webhooks/router-signals';

/** A signal function whose calls the test answers one by one. */
function controlledSignals() {
  const calls: Array<{
    router: string;
    deliveries: string[];
    deadlineMs: number;
    answer: () => void;
    fail: (error: Error) => void;
  }> = [];
  const signal = (router: string, deliveries: string[], deadlineMs: number) =>
    new Promise<void>((answer, fail) => calls.push({ router, deliveries, deadlineMs, answer, fail }));
  return { calls, signal };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('router signals (one in flight per router)', () => {
  test('a delivery alone goes at once; those that arrive meanwhile wait and go together, each answered with its signal', async () => {
    const { calls, signal } = controlledSignals();
    const signals = new RouterSignals(signal, 3);
    const farMs = Date.now() + 60_000;
    const answered: string[] = [];
    const send = (router: string, delivery: string, deadlineMs = farMs) =>
      signals.send(router, delivery, deadlineMs).then(() => answered.push(delivery));

    const first = send('s0', 'a');
    const other = send('s1', 'x');
    const waiting = ['b', 'c', 'd', 'e'].map((delivery, index) => send('s0', delivery, farMs - index));
    await settle();
    // One signal in flight per router; another router is not held up.
    expect(calls.map(({ router, deliveries }) => ({ router, deliveries }))).toEqual([
      { router: 's0', deliveries: ['a'] },
      { router: 's1', deliveries: ['x'] },
    ]);
    calls[0]!.answer();
    await first;
    expect(answered).toEqual(['a']);
    await settle();
    // The waiting ones go together, up to the cap, with the earliest deadline among them.
    expect(calls[2]).toMatchObject({ router: 's0', deliveries: ['b', 'c', 'd'], deadlineMs: farMs - 2 });
    expect(answered).toEqual(['a']);
    calls[2]!.answer();
    await settle();
    expect(calls[3]).toMatchObject({ router: 's0', deliveries: ['e'] });
    calls[3]!.answer();
    calls[1]!.answer();
    await Promise.all([...waiting, other]);
    expect(answered.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'x']);
    expect(calls).toHaveLength(4);
  });

  test('a failed signal fails every delivery it carried, and the next ones still go', async () => {
    const { calls, signal } = controlledSignals();
    const signals = new RouterSignals(signal, 10);
    const farMs = Date.now() + 60_000;
    const first = signals.send('s0', 'a', farMs);
    const carried = [signals.send('s0', 'b', farMs), signals.send('s0', 'c', farMs)];
    await settle();
    calls[0]!.answer();
    await first;
    await settle();
    calls[1]!.fail(new Error('deadline exceeded'));
    for (const delivery of carried) await expect(delivery).rejects.toThrow('deadline exceeded');
    const later = signals.send('s0', 'd', farMs);
    await settle();
    expect(calls[2]).toMatchObject({ deliveries: ['d'] });
    calls[2]!.answer();
    await expect(later).resolves.toBeUndefined();
  });

  test('a delivery whose deadline passed while it waited is never sent', async () => {
    const { calls, signal } = controlledSignals();
    const signals = new RouterSignals(signal, 10);
    const first = signals.send('s0', 'a', Date.now() + 60_000);
    const expired = signals.send('s0', 'late', Date.now() + 1);
    const kept = signals.send('s0', 'kept', Date.now() + 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    calls[0]!.answer();
    await first;
    await expect(expired).rejects.toBeInstanceOf(RouterSignalDeadlineError);
    await settle();
    expect(calls[1]).toMatchObject({ deliveries: ['kept'] });
    calls[1]!.answer();
    await kept;
    expect(calls.flatMap((call) => call.deliveries)).not.toContain('late');
  });
});
