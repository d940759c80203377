/**
 * The server's query-string parser: repeated and bracketed keys (`a=1&a=2`, `a[]=1`, `a[0]=1&a[1]=2`)
 * → `{ a: ['1','2'] }`, anything else plain text, keys and values capped — the same reading the
 * client's URL codecs use (readQuery in src/lib/search-codec.ts).
 */
import { readQuery } from '../../src/lib/search-codec';

export function parseQuery(qs: string): Record<string, string | string[]> {
  return readQuery(qs);
}
