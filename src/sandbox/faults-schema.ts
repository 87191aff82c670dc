/** Moved: the fault schema is configuration (SANDBOX_FAULTS_JSON), src/config/sandbox-faults.ts. */
export * from '../config/sandbox-faults';
