/**
 * The seeded genealogy: `admin` at the root, `demo` as its left child with a large binary downline, and the
 * `blocked` and `demo.expired` members on the right. The whole tree is built in memory (paths, depths,
 * counters, volumes, ranks) and written with multi-row INSERTs, so 100 000 members seed in seconds.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { Rng } from './prng';
import { FIRST_NAMES, LAST_NAMES } from './names';
import { PACKAGES, PLAN_RANKS } from './reference';
import { bestRank, figuresFrom, requirementsOf, type LevelFigure, type RankDefinition } from '../lib/ranks';
import { DEFAULT_COMPENSATION_SETTINGS } from '../lib/compensation';
import * as money from '../lib/money';

const DAY = 86_400_000;
/** Fixed base date: the seeded data does not depend on when it is seeded. */
export const BASE_DATE = Date.UTC(2026, 0, 1);
/** Joining dates run from a year before the base date to about eight months after it. */
const JOIN_FROM = BASE_DATE - 365 * DAY;
const JOIN_SPAN = 600 * DAY;

export interface NamedMember {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  mobileCode: string | null;
  mobile: string | null;
  status: 0 | 1;
  roleId: 1 | 2 | 3;
  demoAllowed: boolean;
}

export const NAMED_MEMBERS = {
  admin: { username: 'admin', email: 'admin@upline.example', firstName: 'Company', lastName: 'Admin', mobileCode: null, mobile: null, status: 1, roleId: 1, demoAllowed: true },
  demo: { username: 'demo', email: 'demo@upline.example', firstName: 'Dana', lastName: 'Demo', mobileCode: '+1', mobile: '5550100', status: 1, roleId: 3, demoAllowed: true },
  blocked: { username: 'blocked', email: 'blocked@upline.example', firstName: 'Blake', lastName: 'Blocked', mobileCode: null, mobile: null, status: 0, roleId: 3, demoAllowed: true },
  expired: { username: 'demo.expired', email: 'expired@upline.example', firstName: 'Erin', lastName: 'Expired', mobileCode: null, mobile: null, status: 1, roleId: 3, demoAllowed: false },
} satisfies Record<string, NamedMember>;

const PHONE_CODES = ['+1', '+1', '+1', '+44', '+34', '+52', '+91', '+49', '+61', '+234'];

interface Node {
  id: number;
  username: string;
  email: string;
  mobileCode: string | null;
  mobile: string | null;
  passwordHash: string;
  firstName: string;
  lastName: string;
  status: number;
  roleId: number;
  demoAllowed: boolean;
  sponsor: number | null; // index
  parent: number | null; // index
  position: 'L' | 'R' | null;
  slot: number | null;
  path: string;
  depth: number;
  packageId: number | null;
  purchase: number | null;
  rankId: number | null;
  rankAt: number | null;
  pvCents: number;
  cvCents: number;
  tvCents: number;
  leftCents: number;
  rightCents: number;
  leftCount: number;
  rightCount: number;
  downline: number;
  children: number;
  referrals: number;
  defaultLeg: 'L' | 'R';
  createdAt: number;
}

export interface SeededMembers {
  count: number;
  ids: { admin: number; demo: number; blocked: number; expired: number };
}

const cents = (c: number) => {
  const neg = c < 0;
  const a = Math.abs(Math.round(c));
  return `${neg ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};
const lit = (v: string | number | boolean | null): string => {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return `'${v.replace(/'/g, "''")}'`;
};
const ts = (ms: number | null) => (ms === null ? 'NULL' : `'${new Date(ms).toISOString()}'`);
const ascii = (s: string) => s.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/**
 * Build and insert the tree. `bulkHash` is one scrypt hash shared by every generated member: hashing
 * thousands of passwords at seed time would take minutes, and their password is the demo password anyway.
 * The named members get hashes of their own.
 */
export async function seedMembers(
  db: Db,
  opts: {
    bulk: number;
    namedHashes: Record<keyof typeof NAMED_MEMBERS, string>;
    bulkHash: string;
    /** Ids of the plan's ranks (PLAN_RANKS[plan] in order). */
    rankIds: number[];
    packageIds: number[];
    seed?: number;
    /** Skip foreign-key triggers while loading (needs superuser rights: the embedded database has them). */
    skipTriggers?: boolean;
    /** The tree's shape: binary (two legs), matrix (`width` children, filled breadth-first) or unilevel (any number). */
    plan?: 'binary' | 'matrix' | 'unilevel';
    width?: number;
  },
): Promise<SeededMembers> {
  const rng = new Rng(opts.seed ?? 20260101);
  const nodes: Node[] = [];
  const rankPlan = opts.plan ?? 'binary';
  const rankDefinitions: RankDefinition[] = PLAN_RANKS[rankPlan].map((r, i) => ({
    id: opts.rankIds[i],
    name: r.name,
    icon: r.icon,
    sortOrder: i + 1,
    bonus: r.bonus,
    requirements: requirementsOf(r.criteria, rankPlan),
  }));
  const packageBv = PACKAGES.map((p, i) => ({ id: opts.packageIds[i], bvCents: Number(p.bv) * 100, days: p.expiryDays }));

  const add = (n: Omit<Node, 'id' | 'path' | 'depth' | 'tvCents' | 'leftCents' | 'rightCents' | 'leftCount' | 'rightCount' | 'downline' | 'children' | 'referrals' | 'rankId' | 'rankAt'>) => {
    const id = nodes.length + 1;
    const parent = n.parent === null ? null : nodes[n.parent];
    const node: Node = {
      ...n,
      id,
      path: `${parent ? parent.path : ''}${id}.`,
      depth: parent ? parent.depth + 1 : 0,
      tvCents: 0,
      leftCents: 0,
      rightCents: 0,
      leftCount: 0,
      rightCount: 0,
      downline: 0,
      children: 0,
      referrals: 0,
      rankId: null,
      rankAt: null,
    };
    nodes.push(node);
    return nodes.length - 1;
  };

  const pickPackage = () => rng.weighted<number | null>([[null, 0.2], [0, 0.4], [1, 0.25], [2, 0.15]]);
  const plan = opts.plan ?? 'binary';
  const width = plan === 'matrix' ? Math.max(2, opts.width ?? 3) : 2;
  const named = (key: keyof typeof NAMED_MEMBERS, parent: number | null, leg: 'L' | 'R' | null, createdAt: number, pkg: number | null) => {
    const position = plan === 'binary' ? leg : null;
    const m = NAMED_MEMBERS[key];
    return add({
      username: m.username,
      email: m.email,
      mobileCode: m.mobileCode,
      mobile: m.mobile,
      passwordHash: opts.namedHashes[key],
      firstName: m.firstName,
      lastName: m.lastName,
      status: m.status,
      roleId: m.roleId,
      demoAllowed: m.demoAllowed,
      sponsor: parent === null ? null : 0,
      parent,
      position,
      slot: leg === null ? null : leg === 'L' ? 0 : 1,
      packageId: pkg === null ? null : packageBv[pkg].id,
      purchase: pkg === null ? null : createdAt,
      pvCents: pkg === null ? 0 : packageBv[pkg].bvCents,
      cvCents: pkg === null ? 0 : Math.round(packageBv[pkg].bvCents / 2),
      defaultLeg: 'L',
      createdAt,
    });
  };
  const admin = named('admin', null, null, JOIN_FROM, null);
  const demo = named('demo', admin, 'L', JOIN_FROM + 1 * DAY, 2);
  const blocked = named('blocked', admin, 'R', JOIN_FROM + 2 * DAY, 0);
  const expired = named('expired', blocked, 'L', JOIN_FROM + 3 * DAY, 0);

  // Binary and matrix: breadth-first below demo (a matrix spills over into the first free place of the
  // sponsor's tree), with a few deterministic gaps so the tree has empty slots to sign up into.
  // Unilevel: each member placed directly under its sponsor; a few leaders recruit dozens.
  type Place = [parent: number, position: 'L' | 'R' | null, slot: number];
  const placesUnder = (parent: number): Place[] =>
    plan === 'binary' ? [[parent, 'L', 0], [parent, 'R', 1]] : Array.from({ length: width }, (_, k): Place => [parent, null, k]);
  const queue: Place[] = placesUnder(demo);
  const recruits = new Map<number, number>();
  const leaders: number[] = [demo];
  let head = 0;
  for (let i = 0; i < opts.bulk; i++) {
    let parent: number;
    let position: 'L' | 'R' | null = null;
    let slotIndex: number;
    let sponsor: number;
    if (plan === 'unilevel') {
      const r = rng.next();
      // Generated members start after the named ones (admin, demo, blocked, demo.expired).
      const generated = nodes.length - (expired + 1);
      parent = r < 0.2 || generated === 0 ? demo : r < 0.45 ? rng.pick(leaders) : expired + 1 + rng.int(0, generated - 1);
      slotIndex = recruits.get(parent) ?? 0;
      recruits.set(parent, slotIndex + 1);
      sponsor = parent;
    } else {
      let slot = queue[head++];
      while (head < queue.length && nodes[slot[0]].depth - nodes[demo].depth >= 3 && rng.chance(0.04)) slot = queue[head++];
      [parent, position, slotIndex] = slot;
      const rel = nodes[parent].depth + 1 - nodes[demo].depth;
      // Sponsor: an upline within a few levels (mostly the parent), never above demo.
      sponsor = parent;
      const up = Math.floor(rng.next() ** 2 * Math.min(rel, 5));
      for (let k = 0; k < up && sponsor !== demo; k++) sponsor = nodes[sponsor].parent!;
    }
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const id = nodes.length + 1;
    const createdAt = JOIN_FROM + 5 * DAY + Math.floor(((i + rng.next() * 0.9) / Math.max(1, opts.bulk)) * (JOIN_SPAN - 5 * DAY));
    const pkg = pickPackage();
    const pvCents = pkg === null ? rng.int(0, 50) * 100 : Math.round(packageBv[pkg].bvCents * (0.5 + rng.next())) ;
    add({
      username: `${ascii(first)}${id}`,
      email: `${ascii(first)}.${ascii(last)}.${id}@example.net`,
      mobileCode: rng.pick(PHONE_CODES),
      mobile: `${2 + (id % 7)}${String(id).padStart(8, '0')}`,
      passwordHash: opts.bulkHash,
      firstName: first,
      lastName: last,
      status: rng.chance(0.015) ? 0 : 1,
      roleId: 3,
      demoAllowed: true,
      sponsor,
      parent,
      position,
      slot: slotIndex,
      packageId: pkg === null ? null : packageBv[pkg].id,
      purchase: pkg === null ? null : createdAt + rng.int(0, 20) * DAY,
      pvCents,
      cvCents: Math.round(pvCents * rng.next() * 0.6),
      defaultLeg: rng.chance(0.2) ? 'R' : 'L',
      createdAt,
    });
    const idx = nodes.length - 1;
    if (plan !== 'unilevel') queue.push(...placesUnder(idx));
    else if (leaders.length < 4 && i % 25 === 3) leaders.push(idx);
  }

  // Counters and volumes, bottom-up: every ancestor counts the member once, on the side it sits under.
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    n.tvCents += n.pvCents;
    if (n.sponsor !== null) nodes[n.sponsor].referrals++;
    if (n.parent === null) continue;
    const p = nodes[n.parent];
    p.children++;
    p.tvCents += n.tvCents;
    if (n.position === 'L') p.leftCents += n.tvCents;
    else if (n.position === 'R') p.rightCents += n.tvCents;
  }
  for (let i = 0; i < nodes.length; i++) {
    let childIdx = i;
    let a = nodes[i].parent;
    while (a !== null) {
      const anc = nodes[a];
      anc.downline++;
      const side = nodes[childIdx].position;
      if (side === 'L') anc.leftCount++;
      else if (side === 'R') anc.rightCount++;
      childIdx = a;
      a = anc.parent;
    }
  }
  // Ranks: the highest of the plan whose criteria are all met (server/lib/ranks.ts), from the same figures
  // the server works out: active personal recruits, volumes, legs, and the tree's levels within the plan's depth.
  const c = DEFAULT_COMPENSATION_SETTINGS;
  const shape = { plan: rankPlan, width, levels: rankPlan === 'matrix' ? c.matrix_depth : rankPlan === 'unilevel' ? c.unilevel_level_percents.length : 0 };
  const active = new Array<number>(nodes.length).fill(0);
  const levels: LevelFigure[][] = nodes.map(() => []);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.sponsor !== null && n.status === 1) active[n.sponsor]++;
    // Matrix: placement levels; unilevel: sponsor generations.
    const up = (x: Node) => (rankPlan === 'unilevel' ? x.sponsor : x.parent);
    let a = up(n);
    for (let k = 1; a !== null && k <= shape.levels; k++, a = up(nodes[a])) {
      const at = levels[a][k - 1] ?? (levels[a][k - 1] = { level: k, members: 0, volume: 0n });
      at.members++;
      at.volume += BigInt(n.pvCents) * 100n;
    }
  }
  const cents = (v: number) => money.fromInt(v) / 100n;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.roleId === 1) continue;
    const f = figuresFrom(
      shape,
      { pv: cents(n.pvCents), tv: cents(n.tvCents), left: cents(n.leftCents), right: cents(n.rightCents), activeReferrals: active[i] },
      levels[i].filter(Boolean),
    );
    const best = bestRank(rankDefinitions, f.values);
    if (best) {
      n.rankId = best.id;
      n.rankAt = Math.min(n.createdAt + rng.int(15, 120) * DAY, JOIN_FROM + JOIN_SPAN);
    }
  }

  const columns =
    'id, username, email, mobile_code, mobile, password_hash, first_name, last_name, status, role_id, account_type, demo_allowed, ' +
    'sponsor_id, parent_id, position, slot, path, depth, package_id, package_purchase_date, package_expiry, rank_id, rank_achieved_at, ' +
    'pv, tv, cv, total_left, total_right, carry_left, carry_right, left_count, right_count, downline_count, child_count, default_leg, created_at, verified';
  const row = (n: Node) => {
    const expiry = n.purchase === null ? null : n.purchase + 365 * DAY;
    return `(${[
      n.id,
      lit(n.username),
      lit(n.email),
      lit(n.mobileCode),
      lit(n.mobile),
      lit(n.passwordHash),
      lit(n.firstName),
      lit(n.lastName),
      n.status,
      n.roleId,
      "'personal'",
      lit(n.demoAllowed),
      n.sponsor === null ? 'NULL' : nodes[n.sponsor].id,
      n.parent === null ? 'NULL' : nodes[n.parent].id,
      lit(n.position),
      lit(n.slot),
      lit(n.path),
      n.depth,
      lit(n.packageId),
      ts(n.purchase),
      ts(expiry),
      lit(n.rankId),
      ts(n.rankAt),
      cents(n.pvCents),
      cents(n.tvCents),
      cents(n.cvCents),
      cents(n.leftCents),
      cents(n.rightCents),
      cents(Math.max(0, n.leftCents - n.rightCents)),
      cents(Math.max(0, n.rightCents - n.leftCents)),
      n.leftCount,
      n.rightCount,
      n.downline,
      n.children,
      lit(n.defaultLeg),
      ts(n.createdAt),
      'TRUE',
    ].join(',')})`;
  };
  // Bulk load: secondary indexes are dropped and rebuilt afterwards (building an index once is far cheaper
  // than maintaining it row by row); on the embedded database foreign-key triggers are skipped too, the
  // generator only refers to rows it wrote before. Both happen inside the seeding transaction.
  if (opts.skipTriggers) await db.execute(sql.raw('SET LOCAL session_replication_role = replica'));
  const indexes = ((await db.execute(
    sql.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'members' AND indexname <> 'members_pkey'`),
  )) as unknown as { rows: { indexname: string; indexdef: string }[] }).rows;
  for (const i of indexes) await db.execute(sql.raw(`DROP INDEX "${i.indexname.replace(/"/g, '""')}"`));
  const BATCH = 2000;
  for (let i = 0; i < nodes.length; i += BATCH) {
    const values = nodes.slice(i, i + BATCH).map(row).join(',\n');
    await db.execute(sql.raw(`INSERT INTO members (${columns}) VALUES\n${values}`));
  }
  for (const i of indexes) await db.execute(sql.raw(i.indexdef));
  if (opts.skipTriggers) {
    await db.execute(sql.raw('SET LOCAL session_replication_role = DEFAULT'));
    // The skipped triggers include the one counting sponsored members per month and sponsor downlines
    // (migrations 0022, 0035): counted once here.
    await db.execute(
      sql.raw(`INSERT INTO member_sponsor_months (member_id, month, joined, referred)
               SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, (count(*) FILTER (WHERE verified))::int, count(*)::int
               FROM members WHERE sponsor_id IS NOT NULL GROUP BY 1, 2
               ON CONFLICT (member_id, month) DO UPDATE SET joined = EXCLUDED.joined, referred = EXCLUDED.referred`),
    );
    await db.execute(
      sql.raw(`INSERT INTO member_sponsor_teams (member_id, team)
               SELECT a.id, count(*)::int FROM members m CROSS JOIN LATERAL sponsor_chain_above(m.sponsor_path) a(id) GROUP BY a.id
               ON CONFLICT (member_id) DO UPDATE SET team = EXCLUDED.team`),
    );
  }
  await db.execute(sql.raw(`SELECT setval(pg_get_serial_sequence('members', 'id'), (SELECT max(id) FROM members))`));

  return {
    count: nodes.length,
    ids: { admin: nodes[admin].id, demo: nodes[demo].id, blocked: nodes[blocked].id, expired: nodes[expired].id },
  };
}
