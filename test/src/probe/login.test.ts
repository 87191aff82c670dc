/** The probe tells a wrong Authentication route from wrong field names, with and without a login known to work. */
import { parseOperatorProfile } from '../../../src/config/operator-profile';
import { DEFAULT_OPERATOR_PROFILE, type OperatorProfile } from '../../../src/domain/operator-profile';
import { runProbe } from '../../../src/probe/run';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { SecretString } from '../../../src/secrets/secret-string';
import { EMAIL, PASSCODE, startTestSandbox } from '../../helpers/operator';

function profileOf(json: unknown): OperatorProfile {
  const parsed = parseOperatorProfile(json);
  if (parsed.issues) throw new Error(JSON.stringify(parsed.issues));
  return parsed.profile;
}

const fieldsOnly = profileOf({ login: { fields: { sessionId: 'loginId', email: 'user', passcode: 'pin' } } });
const routeOnly = profileOf({ routes: { authenticate: 'POST /auth/v2/verify' } });

let sandbox: RunningSandbox;
afterEach(() => sandbox.close());

async function verdicts(served: OperatorProfile, loginProfile?: OperatorProfile) {
  sandbox = await startTestSandbox({ profile: served });
  const { report } = await runProbe({
    baseUrl: sandbox.url,
    email: EMAIL,
    passcode: new SecretString(PASSCODE),
    timeoutMs: 5_000,
    profile: DEFAULT_OPERATOR_PROFILE,
    ...(loginProfile ? { loginProfile } : {}),
    wallets: [],
    transactions: [],
    orders: [],
    allowWrites: false,
  });
  return Object.fromEntries(report.rows.map((row) => [row.key, row.verdict]));
}

describe("the probe's login", () => {
  test('other field names: the route holds, the fields do not; with a known login, the rest is checked', async () => {
    expect(await verdicts(fieldsOnly)).toMatchObject({
      'routes.startSession': 'confirmed',
      'routes.authenticate': 'confirmed',
      'login.fields': 'contradicted',
      csrfHeaderNames: 'not checkable',
    });
    await sandbox.close();
    expect(await verdicts(fieldsOnly, fieldsOnly)).toMatchObject({
      'routes.authenticate': 'confirmed',
      'login.fields': 'contradicted',
      csrfHeaderNames: 'confirmed',
      'errors.body': 'confirmed',
    });
  });

  test('another route: the route does not hold and the fields cannot be told without it, or hold with it', async () => {
    expect(await verdicts(routeOnly)).toMatchObject({
      'routes.authenticate': 'contradicted',
      'login.fields': 'not checkable',
      csrfHeaderNames: 'not checkable',
    });
    await sandbox.close();
    expect(await verdicts(routeOnly, routeOnly)).toMatchObject({
      'routes.authenticate': 'contradicted',
      'login.fields': 'confirmed',
      csrfHeaderNames: 'confirmed',
    });
  });

  test('wrong credentials are not mistaken for another route', async () => {
    sandbox = await startTestSandbox({ passcode: 'another-passcode-entirely' });
    const { report } = await runProbe({
      baseUrl: sandbox.url,
      email: EMAIL,
      passcode: new SecretString(PASSCODE),
      timeoutMs: 5_000,
      profile: DEFAULT_OPERATOR_PROFILE,
      wallets: [],
      transactions: [],
      orders: [],
      allowWrites: false,
    });
    const login = report.rows.find((row) => row.key === 'login.fields')!;
    expect(login.verdict).toBe('contradicted');
    expect(login.seen).toContain('OPERATOR_EMAIL, OPERATOR_PASSCODE');
    expect(report.rows.find((row) => row.key === 'routes.authenticate')!.verdict).toBe('confirmed');
  });
});
