/**
 * Input refused before anything reaches Temporal or the operator. Defined with the rules that refuse it; the typed
 * client re-exports it with its other errors (src/client/errors.ts), and the API answers it 400.
 */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(issues.length > 0 ? `${message}: ${issues.join('; ')}` : message);
  }
}
