// @vitest-environment node
/**
 * The table view read from its bytes (src/api/network-read.ts: the member scan, here on the same thread as
 * there is no Worker in node) against the usual JSON reading of the same answer by the same client: every
 * answer, valid or not, must end the same way — the same members, or the same error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { configureClient, get, setModulesLoaded } from '../../src/api/client';
import { networkApi } from '../../src/api/network';
import { tableViewAnswerSchema, type TableViewAnswer } from '../../src/api/network-answers';
import { MemberTable } from '../../src/api/network-members';
import { reviveState } from '../../src/replay/sandbox';
import { scanAnswer } from '../../src/api/network-scan';
import { tableNodeSchema } from '../../src/schemas/network.schema';
import { tableNode } from '../support/network-fixtures';
import { moduleData } from '../support/session-fixtures';
import { clientHookMocks, localHttpServer } from '../support/local-http';

type Reply = { status: number; raw: string | Buffer };
let reply: () => Reply = () => ({ status: 200, raw: '{}' });

const hooks = clientHookMocks();

const local = localHttpServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on('end', () => {
    const r = reply();
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(r.raw);
  });
});

beforeAll(() => {
  configureClient({ baseURL: local.baseURL, getRoute: () => '/member/network/tabular', ...hooks });
});

beforeEach(() => {
  setModulesLoaded(true);
  for (const h of Object.values(hooks)) h.mockReset();
});

const FIELDS = Object.keys(tableNodeSchema.shape);
const pick = (n: object): Record<string, unknown> => Object.fromEntries(FIELDS.map((k) => [k, (n as Record<string, unknown>)[k]]));

/** Members of a table as plain records, each with the ids of the children the answer carries. */
function members(table: MemberTable): Array<Record<string, unknown>> {
  return Array.from({ length: table.count }, (_, i) => ({
    ...pick(table.node(i)),
    kids: Array.from(table.kidList.subarray(table.kidStart[i], table.kidStart[i + 1]), (k) => table.id(k)),
  }));
}

type Outcome = { ok: true; answer: TableViewAnswer } | { ok: false; error: unknown };
const outcome = (p: Promise<TableViewAnswer>): Promise<Outcome> => p.then((answer) => ({ ok: true, answer }), (error) => ({ ok: false, error }));
const errorShape = (e: unknown) => {
  const x = e as Record<string, unknown>;
  return { name: x.name, message: x.message, kind: x.kind, status: x.status, field: x.field, body: x.body };
};

/** The answer read both ways; both must agree. Answers whether the fast path took it. */
async function agree(body: string | Buffer, status = 200): Promise<{ fast: boolean; result: Outcome }> {
  reply = () => ({ status, raw: body });
  const calls = () => Object.values(hooks).map((h) => h.mock.calls.length);
  const before = calls();
  const read = await outcome(networkApi.tableView());
  const between = calls();
  const usual = await outcome(get(tableViewAnswerSchema, '/api/network/table_view'));
  const after = calls();
  expect(between.map((n, i) => n - before[i])).toEqual(after.map((n, i) => n - between[i]));
  expect(read.ok).toBe(usual.ok);
  if (read.ok && usual.ok) {
    const { genealogy: a, ...restA } = read.answer;
    const { genealogy: b, ...restB } = usual.answer;
    expect(restA).toEqual(restB);
    expect(members(a)).toEqual(members(b));
  } else if (!read.ok && !usual.ok) expect(errorShape(read.error)).toEqual(errorShape(usual.error));
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  return { fast: status === 200 && scanAnswer(bytes, 'table') !== null, result: read };
}

const m = (id: number, parent: number | null, over: Record<string, unknown> = {}, children: unknown[] = []) => ({
  ...tableNode(id, parent),
  ...over,
  children,
});
/** demo → alice (→ dave), bob; texts with quotes, accents and emoji. */
const answer = (dave: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  data: {
    genealogy: m(1, null, { username: 'demo', child_count: 2, last_name: null }, [
      m(2, 1, { username: 'ali"ce', first_name: 'Álïce 😀', level: 1, child_count: 1, avatar: '/a/2.png' }, [
        m(4, 2, { username: 'dave', level: 2, total_earnings: '-12.50', ...dave }),
      ]),
      m(3, 1, { username: 'bob\\', level: 1, status: 0 }),
    ]),
    search_valid: false,
    max_levels: 3,
    levels_loaded: 2,
    ...data,
  },
});
const text = (a: unknown) => JSON.stringify(a);

describe('table view read from its bytes', () => {
  it('written as JSON (a support snapshot) and revived by the replay, is the same table', async () => {
    reply = () => ({ status: 200, raw: text(answer()) });
    const table = (await networkApi.tableView()).genealogy;
    const state = JSON.parse(JSON.stringify({ context: { data: { table, expanded: { 1: true } } } })) as { context: { data: { table: unknown } } };
    expect(state.context.data.table).not.toBeInstanceOf(MemberTable);
    const revived = (reviveState(state) as { context: { data: { table: MemberTable; expanded: unknown } } }).context.data;
    expect(revived.table).toBeInstanceOf(MemberTable);
    expect(members(revived.table)).toEqual(members(table));
    expect(revived.table.indexOf(4)).toBe(table.indexOf(4));
    expect(revived.table.childCount(0)).toBe(2);
    expect(revived.expanded).toEqual({ 1: true });
  });

  it('takes a usual answer on the fast path with the same members, in order, with their nesting', async () => {
    const r = await agree(text(answer()));
    expect(r.fast).toBe(true);
    expect(r.result.ok && members(r.result.answer.genealogy).map((x) => x.username)).toEqual(['demo', 'ali"ce', 'dave', 'bob\\']);
  });

  it('agrees on every field of a member set to every probe value', async () => {
    const probes: unknown[] = [undefined, null, 0, 1, 2, -1, 1.5, Number.NaN, 2 ** 53, '', 'x', '12', '-3.25', '1.', '.5', 'L', true, [], {}];
    let refused = 0;
    for (const field of [...FIELDS, 'children']) {
      for (const value of probes) {
        const dave: Record<string, unknown> = { [field]: value };
        const a = answer(dave);
        if (value === undefined) delete ((a.data.genealogy.children[0] as { children: unknown[] }).children[0] as Record<string, unknown>)[field];
        const r = await agree(text(a));
        if (!r.result.ok) refused++;
      }
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('agrees on answers written in unusual but valid ways, and on malformed ones', async () => {
    const base = text(answer());
    const swap = (from: string, to: string) => {
      expect(base).toContain(from);
      return base.replace(from, to);
    };
    // [answer, whether the fast path takes it]: what it does not take is read the usual way.
    const variants: Array<[string | Buffer, boolean]> = [
      [JSON.stringify(answer(), null, 2), true],
      [JSON.stringify(answer(), null, '\t').replace(/\n/g, '\r\n'), true],
      [swap('"username":"dave"', '"username" : "dave"'), true],
      [swap('"username":"dave"', '"username":"d\\u0061ve\\n\\/"'), true],
      [swap('"username":"dave"', '"username":"\\ud800"'), true],
      [swap('"total_earnings":"-12.50"', '"total_earnings":"\\u0031"'), true],
      [swap('"total_earnings":"-12.50"', '"total_earnings":"\\u0031x"'), false],
      [swap('"username":"dave"', '"username":"dave","extra":{"a":[1,-2.5e3,{"b":null,"c":true}],"d":"\\n"}'), true],
      [swap('"username":"dave"', '"username":"dave","__proto__":{"polluted":1}'), true],
      [swap('"children":[]}', '"children":[ ] }'), true],
      [Buffer.concat([Buffer.from(base.slice(0, base.indexOf('dave'))), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(base.slice(base.indexOf('dave')))]), true],
      [text({ data: answer().data, loaded_modules: moduleData() }), true],
      [text({ loaded_modules: moduleData(), data: answer().data }), true],
      [text({ loaded_modules: { ...moduleData(), company: null }, data: answer().data }), true],
      [swap('"search_valid":false', '"search_valid":false,"other":{"genealogy":[]}'), true],
      [swap('"id":4', '"id":9007199254740991'), true],
      [swap('"username":"dave"', '"user\\u006eame":"dave"'), false],
      [swap('"status":1,"username":"dave"', '"status":1,"username":"dave","status":0'), false],
      [swap('"username":"dave"', '"username":"dave","username":"eve"'), false],
      [swap('"level":2', '"level":2.0'), false],
      [swap('"level":2', '"level":2e0'), false],
      [swap('"level":2', '"level":-0'), false],
      [swap('"level":2', '"level":02'), false],
      [swap('"level":2', '"level":9007199254740993'), false],
      [swap('"level":2', '"level":12345678901234567890'), false],
      [swap('"search_valid":false', '"search_valid":false,"__proto__":{"x":1}'), false],
      [swap('"search_valid":false', '"search_valid":false,"constructor":{"prototype":{}}'), false],
      [swap('"search_valid":false', '"search_valid":false,"genealogy":null'), false],
      [swap('{"data":', '{"data":{},"data":'), false],
      [swap('"children":[]}]}', '"children":[],}]}'), false],
      [swap('"children":[]}', '"children":[null]}'), false],
      [swap('"children":[]}', '"children":{}}'), false],
      [swap('"username":"dave"', '"username":"da\tve"'), false],
      [swap('"username":"dave"', '"username":"da\u0001ve"'), false],
      ['\ufeff' + base, false],
      [base + ' \n', true],
      [base + 'x', false],
      [base + '{}', false],
      [base.slice(0, -1), false],
      [base.slice(0, base.length / 2), false],
      [text({ data: { ...answer().data, genealogy: null } }), false],
      [text({ data: { ...answer().data, genealogy: [] } }), false],
      [text({ data: null }), false],
      [text({ data: [] }), false],
      [text({}), false],
      ['', false],
      ['hello', false],
      ['null', false],
      ['[]', false],
      ['"text"', false],
      ['{', false],
    ];
    for (const [body, fast] of variants) expect([body.toString().slice(0, 80), (await agree(body)).fast]).toEqual([body.toString().slice(0, 80), fast]);
  });

  it('agrees on refusals (status, body) and calls the same hooks', async () => {
    for (const [status, body] of [
      [500, { error_code: 'server_error', message: 'Boom', errors: {} }],
      [401, { error_code: 'unauthorized', message: 'No', errors: {} }],
      [403, { error_code: 'user_blocked', message: 'Blocked', errors: {} }],
      [422, { error_code: 'validation_error', message: 'Bad', errors: { username: ['Unknown'] } }],
      [404, 'not json'],
      [422, '{"error_code":"validation_error","message":"Bad","errors":{"a":["b"]},"__proto__":{"isAdmin":true}}'],
    ] as const) {
      const r = await agree(typeof body === 'string' ? body : text(body), status);
      expect(r.result.ok).toBe(false);
    }
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(2);
    expect(hooks.onUserBlocked).toHaveBeenCalledTimes(2);
  });

  it('reads a big answer on the fast path, deep or wide', async () => {
    const wide = answer();
    wide.data.genealogy.children = Array.from({ length: 5000 }, (_, i) => m(10 + i, 1, { username: `row${i}`, level: 1 }));
    wide.data.genealogy.child_count = 5000;
    expect((await agree(text(wide))).fast).toBe(true);
    // A chain 3000 deep (written out: too deep for JSON.stringify).
    const member = (i: number) => text(m(i, i > 1 ? i - 1 : null, { level: i - 1, child_count: i < 3000 ? 1 : 0 })).slice(0, -'[]}'.length);
    let chain = '';
    for (let i = 1; i <= 3000; i++) chain += member(i) + (i < 3000 ? '[' : '[]}');
    chain += ']}'.repeat(2999);
    const r = await agree(text(answer()).replace(text(answer().data.genealogy), chain));
    expect(r.fast).toBe(true);
    expect(r.result.ok && r.result.answer.genealogy.count).toBe(3000);
  });
});
