/**
 * Both recipient kinds: list (and its paging), get by ID, and under --allow-writes create and delete, one probe
 * recipient at a time, deleted again before the next is made. Its URL is under .invalid, a name that never resolves,
 * so no delivery meant for it reaches anyone.
 */
import { RECIPIENT_ROUTES } from '../operator/client';
import { profileSchemas } from '../operator/profile-schemas';
import { RECIPIENT_KINDS, recipientPagination, recipientPage, webhookRecipient } from '../operator/schemas';
import { authHeaders, callRoute, describeAnswer, type ProbeContext } from './context';
import type { PageObservation } from './paging';
import { isSuccess } from './wire';

export const PROBE_RECIPIENT_URL = 'https://probe.invalid/ramp-orchestrator-probe';

const paginationOf = (body: unknown) => {
  const parsed = recipientPagination.safeParse((body as { pagination?: unknown } | undefined)?.pagination);
  return parsed.success ? parsed.data : undefined;
};

export async function checkRecipients(ctx: ProbeContext): Promise<PageObservation[]> {
  const { profile, allowWrites } = ctx.options;
  const { report } = ctx;
  const { pageParam, limitParam, maxLimit } = profile.paging;
  const observations: PageObservation[] = [];
  for (const kind of RECIPIENT_KINDS) {
    const routes = RECIPIENT_ROUTES[kind];
    const pageTwo = await callRoute(ctx, routes.list, { query: { [pageParam]: 2, [limitParam]: 1 } });
    const listed = await callRoute(ctx, routes.list);
    const largest = await callRoute(ctx, routes.list, { query: { [pageParam]: 1, [limitParam]: maxLimit } });
    const page = recipientPage.safeParse(listed.body);
    report.verdict(
      `routes.${routes.list}`,
      `Recipients of ${kind} events are listed at ${profile.routes[routes.list]} with the spec's pagination`,
      isSuccess(listed) && page.success,
      describeAnswer(listed),
    );
    observations.push({
      list: `${kind} recipients`,
      page: paginationOf(pageTwo.body)?.currentPage,
      limit: paginationOf(pageTwo.body)?.limit,
      defaultLimit: paginationOf(listed.body)?.limit,
      maxLimitTaken: isSuccess(largest),
      maxLimitAnswered: paginationOf(largest.body)?.limit,
    });

    let created: string | undefined;
    if (allowWrites) {
      const answer = await callRoute(ctx, routes.create, { body: { urls: [PROBE_RECIPIENT_URL] } });
      const parsed = profileSchemas(profile).responses[routes.create].safeParse(answer.body);
      const recipients = parsed.success ? (parsed.data as { data: Array<{ id: string }> }).data : [];
      created = recipients[0]?.id;
      report.verdict(
        'src/operator/profile-schemas.ts (createdRecipients)',
        `Creating recipients of ${kind} events answers the created ones (a list, or one)`,
        isSuccess(answer) && created !== undefined,
        describeAnswer(answer),
      );
    }

    const id = created ?? (page.success ? page.data.data[0]?.id : undefined);
    const getAssumption = `A recipient of ${kind} events is read at ${profile.routes[routes.get]}`;
    if (id === undefined)
      report.notCheckable(`routes.${routes.get}`, getAssumption, 'a recipient listed, or --allow-writes');
    else {
      const read = await callRoute(ctx, routes.get, { params: { id } });
      const parsed = webhookRecipient.safeParse((read.body as { data?: unknown } | undefined)?.data);
      report.verdict(
        `routes.${routes.get}`,
        getAssumption,
        isSuccess(read) && parsed.success,
        describeAnswer(read),
      );
    }

    const deleteAssumption = `A recipient of ${kind} events is deleted at ${profile.routes[routes.remove]}`;
    if (created === undefined) {
      report.notCheckable(
        `routes.${routes.remove}`,
        deleteAssumption,
        '--allow-writes (creates one and deletes it)',
      );
      continue;
    }
    const removed = await callRoute(ctx, routes.remove, { params: { id: created } });
    const after = await callRoute(ctx, routes.get, { params: { id: created } });
    const gone = after.status === profile.errors.statuses.notFound;
    report.verdict(
      `routes.${routes.remove}`,
      deleteAssumption,
      isSuccess(removed) && gone,
      `${describeAnswer(removed)}; a read afterwards: ${describeAnswer(after)}${
        isSuccess(removed) ? '' : `; ${await removeAnyway(ctx, routes.remove, created)}`
      }`,
    );
  }
  return observations;
}

/** The probe's recipient, deleted through --login-profile's route when ours failed; says what became of it. */
async function removeAnyway(
  ctx: ProbeContext,
  operation: (typeof RECIPIENT_ROUTES)[keyof typeof RECIPIENT_ROUTES]['remove'],
  id: string,
): Promise<string> {
  const template = ctx.options.loginProfile?.routes[operation];
  if (template !== undefined && template !== ctx.options.profile.routes[operation]) {
    const removed = await ctx.wire.send({
      operation,
      template,
      params: { id },
      headers: authHeaders(ctx.session!),
    });
    if (isSuccess(removed)) return `the probe recipient was deleted at ${template} (--login-profile)`;
  }
  return `the probe recipient ${id} is still there: delete it by hand`;
}
