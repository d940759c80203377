/**
 * Query strings with repeated and bracketed keys: `a=1&a=2`, `a[]=1`, `a[0]=1&a[1]=2` → `{ a: ['1','2'] }`.
 * Anything else is a plain string. Keys are capped so a hostile query cannot blow up memory.
 */
export function parseQuery(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URLSearchParams(qs);
  let n = 0;
  for (const [rawKey, value] of params) {
    if (++n > 200) break;
    const m = /^([^[\]]+)\[(\d{0,3})\]$/.exec(rawKey);
    if (m) {
      const key = m[1];
      const prev = out[key];
      const arr = Array.isArray(prev) ? prev : prev === undefined ? [] : [prev];
      if (arr.length < 100) arr.push(value);
      out[key] = arr;
      continue;
    }
    const prev = out[rawKey];
    if (prev === undefined) out[rawKey] = value;
    else out[rawKey] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
