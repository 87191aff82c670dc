import type { SessionStatus } from '../src/operator/session';
import type { ActivityDeps } from './deps';
import { callOperator } from './operator-failure';

export function createSessionActivities({ operator, logger }: ActivityDeps) {
  return {
    /** Forces a new operator login on this worker; answers non-secret facts only (never a token). */
    async refreshOperatorSession(): Promise<SessionStatus> {
      const status = await callOperator(() => operator.refreshSession());
      logger.info({ expiresAt: status.expiresAt, logins: status.logins }, 'Operator session refreshed');
      return status;
    },
  };
}
