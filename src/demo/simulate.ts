/** The sandbox's simulation endpoints, the demo's stand-in for the outside world (a bank transfer, a chain deposit). */

/** Calls one of the sandbox's simulation endpoints (`/sandbox/v1<path>`); resolves its `data`, throws on an error. */
export async function simulate<T>(
  sandboxUrl: string,
  method: 'POST' | 'PUT' | 'GET',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sandboxUrl}/sandbox/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as { data?: T; error?: { message: string } };
  if (!response.ok)
    throw new Error(
      `sandbox ${method} ${path} answered ${response.status}: ${parsed.error?.message ?? 'no message'}`,
    );
  return parsed.data as T;
}
