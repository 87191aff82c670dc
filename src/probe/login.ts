/**
 * StartSession and Authentication: their routes, the Authentication body's field names and the fields of both
 * answers. With a login profile known to work, each part of the login under test is tried on its own with the other
 * parts taken from that profile, so a wrong route and wrong field names are told apart and the rest can be checked.
 */
import { authenticationBody } from '../operator/profile-schemas';
import { loginSession } from '../operator/schemas';
import { registerSecret } from '../secrets/known-secrets';
import { type ProbeContext, describeAnswer } from './context';
import { isSuccess, type WireAnswer } from './wire';

interface LoginParts {
  startRoute: string;
  authenticateRoute: string;
  fields: { sessionId: string; email: string; passcode: string };
}

interface Attempt {
  parts: LoginParts;
  started: WireAnswer;
  answer?: WireAnswer;
}

const sessionIdOf = (answer: WireAnswer): string | undefined => {
  const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

const sessionOf = (answer: WireAnswer) => {
  const session = (answer.body as { data?: { session?: Record<string, unknown> } } | undefined)?.data
    ?.session;
  const { token, csrfToken, expiresAt } = session ?? {};
  return typeof token === 'string' && token !== '' && typeof csrfToken === 'string' && csrfToken !== ''
    ? { token, csrfToken, expiresAt }
    : undefined;
};

async function attempt(ctx: ProbeContext, parts: LoginParts): Promise<Attempt> {
  const started = await ctx.wire.send({ operation: 'startSession', template: parts.startRoute, body: {} });
  const sessionId = sessionIdOf(started);
  if (!isSuccess(started) || sessionId === undefined) return { parts, started };
  const body = authenticationBody(parts.fields, {
    sessionId,
    email: ctx.options.email,
    passcode: ctx.options.passcode.reveal(),
  });
  const answer = await ctx.wire.send({
    operation: 'authenticate',
    template: parts.authenticateRoute,
    body,
  });
  const session = sessionOf(answer);
  if (session) {
    registerSecret(session.token);
    registerSecret(session.csrfToken);
  }
  return { parts, started, answer };
}

const sameFields = (a: LoginParts['fields'], b: LoginParts['fields']) =>
  JSON.stringify(a) === JSON.stringify(b);

const loggedIn = (tried: Attempt) =>
  tried.answer !== undefined && isSuccess(tried.answer) && !!sessionOf(tried.answer);

const seenOf = (tried: Attempt | undefined) =>
  tried?.answer ? describeAnswer(tried.answer) : 'not reached (no login session ID)';

/**
 * The logins to try after ours: ours from a known StartSession when ours failed, then, with a known login, our route
 * with its fields, its route with our fields, and its route with its fields. None without a StartSession.
 */
function loginCandidates(
  ours: LoginParts,
  known: LoginParts | undefined,
  startRoute: string | undefined,
  startWorks: boolean,
): LoginParts[] {
  if (!startRoute) return [];
  return [
    ...(startWorks ? [] : [{ ...ours, startRoute }]),
    ...(known
      ? [
          { startRoute, authenticateRoute: known.authenticateRoute, fields: ours.fields },
          { startRoute, authenticateRoute: ours.authenticateRoute, fields: known.fields },
          { startRoute, authenticateRoute: known.authenticateRoute, fields: known.fields },
        ]
      : []),
  ];
}

/** No login worked: what our Authentication's answer says of its route and its fields. */
function reportNoLogin(
  report: ProbeContext['report'],
  seen: {
    startRoute: string | undefined;
    ourTry: Attempt | undefined;
    routeAssumption: string;
    fieldsAssumption: string;
  },
): void {
  const { startRoute, ourTry, routeAssumption, fieldsAssumption } = seen;
  const status = ourTry?.answer?.status;
  if (!startRoute || status === undefined || status === 0 || status >= 500) {
    const why = startRoute ? seenOf(ourTry) : 'a working StartSession (or --login-profile)';
    report.notCheckable('routes.authenticate', routeAssumption, why);
    report.notCheckable('login.fields', fieldsAssumption, why);
  } else if (status === 404 || status === 405) {
    report.contradicted('routes.authenticate', routeAssumption, seenOf(ourTry));
    report.notCheckable('login.fields', fieldsAssumption, 'the Authentication route (or --login-profile)');
  } else {
    report.confirmed('routes.authenticate', routeAssumption, `it answers (${seenOf(ourTry)})`);
    report.contradicted(
      'login.fields',
      fieldsAssumption,
      `${seenOf(ourTry)}: the body or the credentials (OPERATOR_EMAIL, OPERATOR_PASSCODE) refused`,
    );
  }
}

/** Logs in and reports on the login's assumptions; answers the session's token and CSRF value, if any. */
export async function checkLogin(
  ctx: ProbeContext,
): Promise<{ token: string; csrfToken: string } | undefined> {
  const { profile, loginProfile } = ctx.options;
  const { report } = ctx;
  const ours: LoginParts = {
    startRoute: profile.routes.startSession,
    authenticateRoute: profile.routes.authenticate,
    fields: profile.login.fields,
  };
  const known: LoginParts | undefined = loginProfile && {
    startRoute: loginProfile.routes.startSession,
    authenticateRoute: loginProfile.routes.authenticate,
    fields: loginProfile.login.fields,
  };

  // StartSession on its own.
  const first = await attempt(ctx, ours);
  const startWorks = isSuccess(first.started) && sessionIdOf(first.started) !== undefined;
  report.verdict(
    'routes.startSession',
    `StartSession is ${ours.startRoute} with body {} and answers data.id`,
    startWorks,
    describeAnswer(first.started),
  );
  const startRoute = startWorks ? ours.startRoute : known?.startRoute;

  // Authentication: ours; then, with a known login, our route with its fields and its route with our fields.
  const tries: Attempt[] = startWorks ? [first] : [];
  for (const parts of loginCandidates(ours, known, startRoute, startWorks)) {
    if (tries.some(loggedIn)) break;
    if (tries.some((tried) => JSON.stringify(tried.parts) === JSON.stringify(parts))) continue;
    tries.push(await attempt(ctx, parts));
  }
  const success = tries.find(loggedIn);
  const started = [first, ...tries].find((tried) => sessionIdOf(tried.started) !== undefined)?.started;
  if (started) {
    const fields = loginSession.safeParse((started.body as { data?: unknown }).data);
    report.verdict(
      'src/operator/schemas.ts (loginSession)',
      "StartSession's answer has the spec's fields (id, isCompleted, identityType, class, classId, activeStep, expiresAt)",
      fields.success,
      fields.success ? 'all present' : fields.error.issues.map((issue) => issue.path.join('.')).join(', '),
    );
  }
  const ourTry = tries.find(
    (tried) =>
      tried.parts.authenticateRoute === ours.authenticateRoute && sameFields(tried.parts.fields, ours.fields),
  );
  const routeAssumption = `Authentication is ${ours.authenticateRoute}`;
  const fieldsAssumption = `The Authentication body is { ${ours.fields.sessionId}, ${ours.fields.email}, ${ours.fields.passcode} }`;

  if (!success) {
    reportNoLogin(report, { startRoute, ourTry, routeAssumption, fieldsAssumption });
    return undefined;
  }
  const routeHolds = success.parts.authenticateRoute === ours.authenticateRoute;
  const fieldsHold = sameFields(success.parts.fields, ours.fields);
  report.verdict(
    'routes.authenticate',
    routeAssumption,
    routeHolds,
    routeHolds
      ? describeAnswer(success.answer!)
      : `${seenOf(ourTry)} here; logged in at ${success.parts.authenticateRoute}`,
  );
  report.verdict(
    'login.fields',
    fieldsAssumption,
    fieldsHold,
    fieldsHold
      ? 'accepted'
      : `refused (${seenOf(tries.find((tried) => sameFields(tried.parts.fields, ours.fields)))}); accepted: { ${Object.values(success.parts.fields).join(', ')} }`,
  );
  const session = sessionOf(success.answer!)!;
  report.verdict(
    'src/operator/profile-schemas.ts (authenticate)',
    "Authentication answers data.session with the spec's token, csrfToken and expiresAt",
    typeof session.expiresAt === 'string',
    typeof session.expiresAt === 'string'
      ? 'all present'
      : 'no expiresAt (the session lives OPERATOR_TOKEN_LIFETIME)',
  );
  return { token: session.token, csrfToken: session.csrfToken };
}
