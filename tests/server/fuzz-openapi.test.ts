// @vitest-environment node
/**
 * Every operation of the OpenAPI document the server publishes, called with generated bad input:
 * values that follow the documented schema (so they get past validation) mixed with hostile ones
 * (control characters, numbers beyond 32 and 64 bits, impossible dates, crafted cursors, wrong types,
 * long text). Signed in as a seeded member. The server must answer every call without a 5xx.
 *
 * Bounded and seeded: FUZZ_CASES calls per operation (default 150), FUZZ_SEED (default fixed) makes a
 * failure repeatable; the failing requests are listed in each operation's assertion, and a last line prints the
 * figures (operations, calls, 5xx answers). Every route under /api must be in the document, so none escapes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/server';
import { call, freshIp, login } from './helpers';

const CASES = Number(process.env.FUZZ_CASES ?? 150);
/** Calls for an operation that declares no input at all (only undeclared parameters to vary). */
const CASES_WITHOUT_INPUT = Math.ceil(CASES / 8);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  $ref?: string;
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params: Parameter[];
  body: JsonSchema | null;
}
interface Case {
  url: string;
  body?: string;
}

// The server and its document are read while the file is collected, so that each operation is a test of its own
// (its own time limit, its own line in the report).
const s: TestServer = await startTestServer({ rateLimitScale: 1000 });
let token = (await login(s.app, 'demo')).token;
const doc = (await call(s.app, 'GET', '/api/openapi.json')).body as {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};
const components: Record<string, JsonSchema> = doc.components?.schemas ?? {};
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase() as Operation['method'],
    path,
    params: op.parameters ?? [],
    body: op.requestBody?.content?.['application/json']?.schema ?? null,
  })),
);

afterAll(async () => {
  await s?.close();
});

// --- Values ------------------------------------------------------------------------------------

const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const bigNumbers = ['0', '-1', '2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740993', '99999999999999999999', '1e309', '-0', '1.5', 'NaN', 'Infinity', '0x10', ' 1', '1 '];
const badDates = ['2023-02-30', '2023-13-01', '0000-01-01', '9999-12-31', '1899-12-31', '20230101', '2023-1-1', '-2023-01-01', '275760-09-13', '2023-02-29T00:00:00Z'];
const controlText = ['\u0000', 'a\u0000b', '\u0001\u001f', 'x\r\nBcc: victim@example.com', '\u2028', '\uFEFF', '\uD800', '%00', '\\u0000', "' OR 1=1 --", '${7*7}', '<script>alert(1)</script>', ''];

/** Cursors that decode to the server's own format with values out of every range. */
const craftedCursor = fc.oneof(
  fc
    .tuple(fc.constantFrom('asc', 'desc'), fc.oneof(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), fc.constantFrom(-999999999999999n, 8640000000000001n, 253402300800000n)), fc.oneof(fc.bigInt({ min: -1n, max: 10n ** 16n }), fc.constantFrom(2147483648n, 0n)))
    .map(([sort, t, id]) => cursorOf(`v1|${sort}|${t}|${id}`)),
  fc.string({ unit: 'binary', maxLength: 40 }).map(cursorOf),
  fc.constantFrom('djF8ZGVzY3wtOTk5OTk5OTk5OTk5OTk5fDU', cursorOf('v1|asc|0|99999999999'), cursorOf('v1|desc|1700000000000|2147483648')),
);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...bigNumbers, ...badDates, ...controlText),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'binary', minLength: 200, maxLength: 2000 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  craftedCursor,
);

/** Any JSON value of the wrong shape. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 2147483648, 1e308, -1e308, 0.5, [], {}, [null], { $gt: '' }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 3 }),
);

function deref(schema: JsonSchema): JsonSchema {
  if (schema.$ref) return components[schema.$ref.replace('#/components/schemas/', '')] ?? {};
  return schema;
}

/** A value the schema accepts as far as the document tells (text may still carry control characters). */
function plausible(raw: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(raw);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => plausible(a, depth)));
  if (schema.allOf?.length) return plausible(schema.allOf[0], depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 1000 }), fc.constantFrom(2147483648, -2147483649, Number.MAX_SAFE_INTEGER));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'array':
      return depth > 2 ? fc.constant([]) : fc.array(plausible(schema.items ?? {}, depth + 1), { maxLength: 4 });
    case 'object':
      return depth > 2 ? fc.constant({}) : objectOf(schema, depth + 1);
    default:
      return plausibleString(schema);
  }
}

function plausibleString(schema: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 80, 300);
  const min = Math.min(schema.minLength ?? 0, max);
  const options: fc.Arbitrary<string>[] = [];
  if (schema.pattern) {
    // Text of a base64url alphabet may be a cursor: cursors of the server's own format with values out of range are plausible.
    if (schema.pattern.includes('A-Za-z0-9_-')) options.push(craftedCursor);
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern)));
    } catch {
      /* a pattern JavaScript cannot read: text of the right length stands in */
    }
  }
  if (schema.format === 'email') options.push(fc.emailAddress(), fc.constantFrom('demo@upline.example', 'a\u0000@b.example'));
  if (schema.format === 'date') options.push(fc.constantFrom(...badDates, '2024-02-29'));
  if (!options.length || !schema.pattern) {
    options.push(
      fc.string({ minLength: min, maxLength: max }),
      fc.string({ unit: 'binary', minLength: Math.max(min, 1), maxLength: max }),
      fc.constantFrom('demo', 'blocked', 'admin', 'a', 'D'),
      fc.constantFrom(...controlText.filter((t) => t.length >= min && t.length <= max)),
      fc.constantFrom(...bigNumbers),
      craftedCursor,
    );
  }
  return fc.oneof(...options);
}

/** An object of the schema's properties: the required ones and some of the others. */
function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, plausible(v, depth)]));
  return fc.record(model, { requiredKeys: schema.required?.filter((k) => k in props) ?? [] });
}

/** Mostly plausible, sometimes a hostile value or a key too many. */
function mutated(schema: JsonSchema): fc.Arbitrary<unknown> {
  const base = plausible(schema);
  const props = Object.keys(deref(schema).properties ?? {});
  if (!props.length) return fc.oneof({ arbitrary: base, weight: 3 }, { arbitrary: hostileJson, weight: 1 });
  return fc.oneof(
    { arbitrary: base, weight: 3 },
    {
      arbitrary: fc.tuple(base, fc.constantFrom(...props), hostileJson).map(([obj, key, value]) => ({ ...(obj as object), [key]: value })),
      weight: 4,
    },
    { arbitrary: hostileJson, weight: 1 },
  );
}

// --- Requests ----------------------------------------------------------------------------------

const queryValue: fc.Arbitrary<unknown> = fc.oneof({ arbitrary: hostileString, weight: 3 }, { arbitrary: fc.array(hostileString, { minLength: 2, maxLength: 3 }), weight: 1 });

const pathValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 400 }).map(String), weight: 2 },
  { arbitrary: fc.constantFrom(...bigNumbers, 'binary', 'sponsor', 'me', '..', '%2e%2e', 'a%00b'), weight: 2 },
  { arbitrary: hostileString, weight: 2 },
);

function caseOf(op: Operation): fc.Arbitrary<Case> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const path = fc.tuple(...pathParams.map(() => pathValue)).map((values) =>
    pathParams.reduce((url, p, i) => url.replace(`{${p.name}}`, encodeURIComponent(Buffer.from(values[i]).toString()).replace(/\./g, '%2E') || '0'), op.path),
  );
  // Mostly plausible parameters (so the call gets past validation) with at most one hostile among them.
  const names = queryParams.map((p) => p.name);
  if (!names.length && !pathParams.length && !op.body) {
    // Nothing declared: parameters nobody asked for (the client's own, and junk) must be harmless too.
    const extra = fc.dictionary(fc.oneof(fc.constantFrom('load_modules', 'route', 'demo_plan', 'id', 'page'), fc.string({ maxLength: 8 })), hostileString, { maxKeys: 3 });
    return extra.map((q) => ({ url: `${op.path}?${new URLSearchParams(q).toString()}` }));
  }
  const plain = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, plausible(p.schema ?? { type: 'string' })])), { requiredKeys: [] });
  const query: fc.Arbitrary<Record<string, unknown>> = names.length
    ? fc.oneof(
        { arbitrary: plain, weight: 2 },
        { arbitrary: fc.tuple(plain, fc.constantFrom(...names), queryValue).map(([q, k, v]) => ({ ...q, [k]: v })), weight: 3 },
      )
    : fc.constant({});
  const body = op.body ? fc.option(mutated(op.body), { nil: undefined, freq: 10 }) : fc.constant(undefined);
  return fc.tuple(path, query, body).map(([url, q, b]) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) {
      if (Array.isArray(v)) v.forEach((x, i) => search.append(i % 2 ? `${k}[${i}]` : k, String(x)));
      else if (v !== undefined) search.append(k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
    }
    const qs = search.toString();
    return { url: qs ? `${url}?${qs}` : url, body: b === undefined ? undefined : JSON.stringify(b) };
  });
}

/** A stable number per operation, so each one has its own repeatable stream of cases. */
const seedOf = (op: Operation) => [...`${op.method} ${op.path}`].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/**
 * Every route the server registers under /api, from Fastify's own route tree (`printRoutes`), as `METHOD /path`
 * with OpenAPI's `{param}` spelling; HEAD (Fastify's twin of each GET) left out.
 */
function registeredApiRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of s.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = [...m[1]].length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2];
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) {
      if (path.startsWith('/api/')) out.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}

/** Routes under /api the document leaves out on purpose: the document itself. */
const UNDOCUMENTED = new Set(['GET /api/openapi.json']);

const figures = { calls: 0, failures: [] as string[], failing: new Set<string>(), started: Date.now() };

describe('generated bad input on every operation of the OpenAPI document', () => {
  it('the document names every operation the server registers under /api', () => {
    const documented = new Set(operations.map((op) => `${op.method} ${op.path}`));
    const missing = registeredApiRoutes().filter((r) => !documented.has(r) && !UNDOCUMENTED.has(r));
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThan(50);
  });

  for (const op of operations) {
    it(`${op.method} ${op.path} never answers 5xx`, async () => {
      const declaresInput = op.params.length > 0 || op.body !== null;
      const cases = fc.sample(caseOf(op), { numRuns: declaresInput ? CASES : CASES_WITHOUT_INPUT, seed: seedOf(op) });
      const failures: string[] = [];
      for (const c of cases) {
        const res = await call(s.app, op.method, c.url, undefined, {
          token,
          ip: freshIp(),
          ...(c.body !== undefined ? { raw: c.body, contentType: 'application/json' } : {}),
        });
        figures.calls++;
        if (res.status >= 500) failures.push(`${op.method} ${c.url} ${c.body ?? ''} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
      // An operation that ended the session (logout, account deletion) must not spoil the next ones.
      if ((await call(s.app, 'GET', '/api/auth_check', undefined, { token })).status === 401) token = (await login(s.app, 'demo')).token;
      if (failures.length) {
        figures.failing.add(`${op.method} ${op.path}`);
        figures.failures.push(...failures);
      }
      expect(failures.slice(0, 10), `${failures.length} calls answered 5xx`).toEqual([]);
    }, 180_000);
  }

  afterAll(() => {
    const seconds = ((Date.now() - figures.started) / 1000).toFixed(1);
    console.info(
      `fuzz: ${operations.length} operations, ${figures.calls} calls in ${seconds} s, ${figures.failures.length} answered 5xx` +
        (figures.failing.size ? ` (on ${figures.failing.size} operations: ${[...figures.failing].join(', ')})` : ''),
    );
  });
});
