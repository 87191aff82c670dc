/**
 * What the session's calls rest on: which CSRF header names the operator accepts (each alone, on the current vault
 * networks, a harmless read), and how it refuses a missing token, a wrong CSRF value and an unknown ID (status and
 * error body).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_OPERATOR_PROFILE } from '../domain/operator-profile';
import { NETWORKS } from '../domain/vocabulary';
import { profileSchemas } from '../operator/profile-schemas';
import { authHeaders, callRoute, describeAnswer, type ProbeContext, type ProbeSession } from './context';
import { isSuccess, type WireAnswer } from './wire';

/** Finds the CSRF header names that work and reports on them; undefined when none does. */
export async function checkCsrfHeaders(
  ctx: ProbeContext,
  login: { token: string; csrfToken: string },
): Promise<ProbeSession | undefined> {
  const { profile, loginProfile } = ctx.options;
  const candidates = [
    ...new Set([
      ...profile.csrfHeaderNames,
      ...(loginProfile?.csrfHeaderNames ?? []),
      ...DEFAULT_OPERATOR_PROFILE.csrfHeaderNames,
    ]),
  ];
  const session: ProbeSession = { ...login, csrfHeaderNames: [] };
  const refused: string[] = [];
  let networks: WireAnswer | undefined;
  for (const name of candidates) {
    const answer = await callRoute({ ...ctx, session }, 'currentVaultNetworks', {
      headers: authHeaders(session, { names: [name] }),
    });
    if (isSuccess(answer)) {
      session.csrfHeaderNames.push(name);
      networks ??= answer;
    } else refused.push(`${name} (${describeAnswer(answer)})`);
  }
  const accepted = session.csrfHeaderNames;
  const holds = profile.csrfHeaderNames.every((name) => accepted.includes(name));
  ctx.report.verdict(
    'csrfHeaderNames',
    `The operator takes the CSRF value under ${profile.csrfHeaderNames.join(' and under ')}, each alone`,
    holds,
    `accepted alone: ${accepted.join(', ') || 'none'}${refused.length > 0 ? `; refused alone: ${refused.join(', ')}` : ''}`,
  );
  if (!networks) return undefined;
  ctx.report.confirmed(
    'routes.currentVaultNetworks',
    `The current vault networks answer at ${profile.routes.currentVaultNetworks}`,
    describeAnswer(networks),
  );
  const text = JSON.stringify(networks.body);
  const missing = Object.values(NETWORKS).filter((network) => !text.includes(network));
  ctx.report.verdict(
    'src/domain/vocabulary.ts (NETWORKS)',
    `The vault has the networks we create wallets on (${Object.values(NETWORKS).join(', ')})`,
    missing.length === 0,
    missing.length === 0 ? 'both listed' : `not listed: ${missing.join(', ')}`,
  );
  return session;
}

/** The statuses and the error body of three refusals. */
export async function checkErrors(ctx: ProbeContext, session: ProbeSession): Promise<void> {
  const { profile } = ctx.options;
  const { statuses } = profile.errors;
  const noToken = await ctx.wire.send({
    operation: 'currentVaultNetworks',
    template: profile.routes.currentVaultNetworks,
    headers: authHeaders(session, { token: null }),
  });
  const wrongCsrf = await ctx.wire.send({
    operation: 'currentVaultNetworks',
    template: profile.routes.currentVaultNetworks,
    headers: authHeaders(session, { csrf: `probe-${randomUUID()}` }),
  });
  const unknownId = await callRoute(ctx, 'getWalletAddresses', { params: { id: randomUUID() } });

  const refusals: Array<[string, string, number, WireAnswer]> = [
    ['errors.statuses.unauthenticated', 'A call without a bearer token', statuses.unauthenticated, noToken],
    ['errors.statuses.csrf', 'A call with a wrong CSRF value', statuses.csrf, wrongCsrf],
    ['errors.statuses.notFound', 'A read of a wallet ID that does not exist', statuses.notFound, unknownId],
  ];
  for (const [key, what, expected, answer] of refusals)
    ctx.report.verdict(
      key,
      `${what} is answered ${expected}`,
      answer.status === expected,
      describeAnswer(answer),
    );

  const { errorBody } = profileSchemas(profile);
  const refusedBodies = refusals.map(([, , , answer]) => answer).filter((answer) => answer.status >= 400);
  const unreadable = refusedBodies.filter((answer) => !errorBody.safeParse(answer.body).success);
  const bodyAssumption = `An error answer carries its code at ${profile.errors.body.code} and its message at ${profile.errors.body.message}`;
  if (refusedBodies.length === 0)
    ctx.report.notCheckable('errors.body', bodyAssumption, 'an error answer (none of the three was refused)');
  else
    ctx.report.verdict(
      'errors.body',
      bodyAssumption,
      unreadable.length === 0,
      unreadable.length === 0
        ? `all ${refusedBodies.length} error answers`
        : `${unreadable.length} of ${refusedBodies.length} differ, e.g. ${describeAnswer(unreadable[0]!)}`,
    );
}
