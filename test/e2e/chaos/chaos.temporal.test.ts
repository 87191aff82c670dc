/**
 * The short chaos profile (`npm test`; `npm run chaos` runs the long one): the product as separate processes on
 * loopback (its own dev server, its PostgreSQL, the sandbox, the worker, the receiver, the API), end-user traffic
 * while the worker and the receiver are SIGKILLed, the dev server restarts on its data file, PostgreSQL is
 * SIGKILLed and restarted cleanly on its data folder, a new worker version is released and deliveries, operator
 * calls and the client's endpoint misbehave; then the invariants, checked from the outside. CHAOS_SEED replays a
 * run (every run prints its seed).
 */
import { logTails } from './harness';
import { type ChaosReport, formatReport, PROFILES, runChaos } from './scenario';

const profile = { ...PROFILES.short, seed: Number(process.env.CHAOS_SEED ?? Date.now()) >>> 0 };
const say = (line: string) => process.stdout.write(`${line}\n`);
const onRampTotal = (report: ChaosReport) =>
  report.counts.onRamps.settled + report.counts.onRamps.expired + report.counts.onRamps.failed;

describe('chaos, short profile (separate processes, kills, dev-server and database restarts, a release, delivery and operator faults)', () => {
  test(
    'no process lost, no duplicate run, no unrecorded wallet, no misattributed process; no ledger row lost, stale or duplicated, every booked row as the operator says',
    async () => {
      const report = await runChaos(profile, { log: say });
      say(`\n${formatReport(report)}`);
      if (report.logDir) say(`\n${logTails(report.logDir)}`);
      // The run must really have done what it claims, or zero violations would prove nothing.
      expect(report.counts.workerKills).toBe(profile.workerKills);
      expect(report.counts.receiverKills).toBe(profile.receiverKills);
      expect(report.counts.devServerRestarts).toBe(profile.devServerRestarts);
      expect(report.counts.databaseKills).toBe(profile.databaseKills);
      expect(report.counts.databaseRestarts).toBe(profile.databaseRestarts);
      // The ledger held every ramp and booked the ended ones, and the client's endpoint got events.
      expect(report.counts.ledger.rampRows).toBe(report.counts.offRamps + onRampTotal(report));
      expect(report.counts.ledger.bookings).toBe(report.counts.ledger.rampRows);
      expect(report.counts.ledger.events.confirmed).toBeGreaterThan(0);
      // The release came while ramps flowed: ramps ran on the old version and on the new one, which is current.
      expect(report.counts.releases).toBe(profile.releases);
      expect(report.counts.versions.map(({ buildId, state }) => [buildId, state])[0]).toEqual([
        `chaos-${profile.releases}`,
        'current',
      ]);
      for (const version of report.counts.versions)
        expect({ version: version.buildId, ranRamps: version.ramps > 0 }).toEqual({
          version: version.buildId,
          ranRamps: true,
        });
      // Every ramp pinned to an older version ended there, and every long-lived workflow moved to the current one.
      for (const version of report.counts.versions.slice(1))
        expect({
          version: version.buildId,
          ramps: version.rampsRunning,
          longLived: version.longLived,
        }).toEqual({
          version: version.buildId,
          ramps: 0,
          longLived: 0,
        });
      // Every process survived what was done to the others (the database's restarts among them).
      expect(Object.entries(report.counts.unexpectedExits).filter(([, exits]) => exits > 0)).toEqual([]);
      // Some on-ramps were announced only after their order events: attributing them is part of "0 misattributed".
      expect(report.counts.lateAnnouncements).toBeGreaterThan(0);
      expect(report.figures).toEqual({
        lost: 0,
        duplicateRuns: 0,
        unrecordedWallets: 0,
        misattributed: 0,
        lostRows: 0,
        staleRows: 0,
        duplicateRows: 0,
        bookingMismatches: 0,
      });
    },
    profile.deadlineMs + 30_000,
  );
});
