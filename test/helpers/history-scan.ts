/** Walks a history's JSON and finds where a value appears in clear: directly, or inside a base64 field (payload data). */
export interface Occurrence {
  path: string;
  via: 'text' | 'base64';
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function findInJson(json: unknown, needle: string, path = '$'): Occurrence[] {
  if (typeof json === 'string') {
    const found: Occurrence[] = [];
    if (json.includes(needle)) found.push({ path, via: 'text' });
    if (
      json.length >= 4 &&
      json.length % 4 === 0 &&
      BASE64.test(json) &&
      Buffer.from(json, 'base64').toString('latin1').includes(needle)
    ) {
      found.push({ path, via: 'base64' });
    }
    return found;
  }
  if (Array.isArray(json))
    return json.flatMap((item, index) => findInJson(item, needle, `${path}[${index}]`));
  if (json && typeof json === 'object') {
    return Object.entries(json as Record<string, unknown>).flatMap(([key, value]) => [
      ...(key.includes(needle) ? [{ path: `${path}.${key}`, via: 'text' as const }] : []),
      ...findInJson(value, needle, `${path}.${key}`),
    ]);
  }
  return [];
}

/** Every payload object ({ metadata, data }) in a history JSON. */
export function collectPayloads(
  json: unknown,
  into: Array<{ metadata: Record<string, string>; data?: string }> = [],
) {
  if (Array.isArray(json)) json.forEach((item) => collectPayloads(item, into));
  else if (json && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    if (
      record.metadata &&
      typeof record.metadata === 'object' &&
      !Array.isArray(record.metadata) &&
      'encoding' in record.metadata
    ) {
      into.push({
        metadata: record.metadata as Record<string, string>,
        ...(typeof record.data === 'string' ? { data: record.data } : {}),
      });
    } else Object.values(record).forEach((value) => collectPayloads(value, into));
  }
  return into;
}
