/**
 * A canonical JSON text of a validated value: object keys sorted, keys whose value is null or
 * undefined left out (the wire contract reads null exactly as absent). Two bodies that mean the
 * same request (keys in another order, an ignored extra key, `"price": null` or no price) give the
 * same text. Called on schema output only, whose depth the schema bounds.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
