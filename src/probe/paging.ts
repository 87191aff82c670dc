/**
 * Paging, seen on every list the probe reads: whether the operator honours the profile's page and page-size
 * parameters (each list is asked for page 2 of 1 and its pagination read back), its default page size and its
 * largest.
 */
import type { ProbeContext } from './context';

export interface PageObservation {
  list: string;
  /** What the pagination answered for `?page=2&limit=1` under the profile's names. */
  page: number | undefined;
  limit: number | undefined;
  /** The page size answered without paging parameters. */
  defaultLimit?: number | undefined;
  /** Whether `limit=maxLimit` was taken (2xx), and the page size answered. */
  maxLimitTaken?: boolean;
  maxLimitAnswered?: number | undefined;
}

export function reportPaging(ctx: ProbeContext, observations: readonly PageObservation[]): void {
  const { paging } = ctx.options.profile;
  const { report } = ctx;
  const toCheck = 'a list to read: --wallet <id>, a recipient, or --allow-writes';
  const pageAssumption = `The page number is the parameter ${paging.pageParam}`;
  const limitAssumption = `The page size is the parameter ${paging.limitParam}`;
  const defaultAssumption = `A list without paging parameters has pages of ${paging.defaultLimit}`;
  const maxAssumption = `Pages of up to ${paging.maxLimit} are taken`;
  if (observations.length === 0) {
    for (const [key, assumption] of [
      ['paging.pageParam', pageAssumption],
      ['paging.limitParam', limitAssumption],
      ['paging.defaultLimit', defaultAssumption],
      ['paging.maxLimit', maxAssumption],
    ] as const)
      report.notCheckable(key, assumption, toCheck);
    return;
  }
  const seen = (pick: (seen: PageObservation) => unknown) =>
    observations.map((observation) => `${observation.list}: ${String(pick(observation))}`).join('; ');
  const pageHolds = observations.every((observation) => observation.page === 2);
  const limitHolds = observations.every((observation) => observation.limit === 1);
  report.verdict(
    'paging.pageParam',
    pageAssumption,
    pageHolds,
    `asked ${paging.pageParam}=2, answered page ${seen((observation) => observation.page)}`,
  );
  report.verdict(
    'paging.limitParam',
    limitAssumption,
    limitHolds,
    `asked ${paging.limitParam}=1, answered limit ${seen((observation) => observation.limit)}`,
  );
  const defaults = observations.filter((observation) => 'defaultLimit' in observation);
  if (defaults.length === 0) report.notCheckable('paging.defaultLimit', defaultAssumption, toCheck);
  else
    report.verdict(
      'paging.defaultLimit',
      defaultAssumption,
      defaults.every((observation) => observation.defaultLimit === paging.defaultLimit),
      `answered limit ${seen((observation) => observation.defaultLimit)}`,
    );
  const maxima = observations.filter((observation) => observation.maxLimitTaken !== undefined);
  if (!limitHolds || maxima.length === 0)
    report.notCheckable('paging.maxLimit', maxAssumption, `the page size parameter (${paging.limitParam})`);
  else
    report.verdict(
      'paging.maxLimit',
      maxAssumption,
      maxima.every(
        (observation) => observation.maxLimitTaken && observation.maxLimitAnswered === paging.maxLimit,
      ),
      `asked ${paging.limitParam}=${paging.maxLimit}: ${seen((observation) =>
        observation.maxLimitTaken ? `limit ${observation.maxLimitAnswered}` : 'refused',
      )}`,
    );
}
