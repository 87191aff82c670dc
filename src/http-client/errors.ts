/** An answer of the HTTP API other than 2xx: its status and the error envelope's code, message and issues. */
export class RampApiError extends Error {
  override readonly name = 'RampApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: string[] = [],
  ) {
    super(`${status} ${code}: ${message}${issues.length > 0 ? ` (${issues.join('; ')})` : ''}`);
  }
}
