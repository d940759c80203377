// @vitest-environment node
/**
 * Statements written in one pass (server/db/sql-text.ts) come out exactly as drizzle writes them — text,
 * parameters and their numbering — whatever chunks they are made of, and a database's statements run so.
 */
import { and, desc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { members, sessions } from '../../server/db/schema';
import { fasterSqlText, SqlTextMismatchError, writeSql } from '../../server/db/sql-text';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';

const dialect = new PgDialect();
const config = () => ({
  casing: (dialect as unknown as { casing: never }).casing,
  escapeName: dialect.escapeName,
  escapeParam: dialect.escapeParam,
  escapeString: dialect.escapeString,
  prepareTyping: dialect.prepareTyping,
});
const qb = new QueryBuilder();
const sponsor = alias(members, 'sponsor');
const since = new Date('2026-01-02T03:04:05.000Z');

const statements: Array<[string, SQL]> = [
  ['text and plain values', sql`SELECT ${1}, ${'a'}, ${true}, ${null}, ${10n}, ${undefined} FROM x WHERE y = ${'b'}`],
  ['nested statements', sql`SELECT ${sql`a, ${2}`} FROM (${sql`SELECT ${3} ${sql.raw('AS z')}`}) q WHERE ${sql.join([sql`${4}`, sql`${5}`], sql` AND `)}`],
  ['columns, tables and aliases', sql`SELECT ${members.id}, ${sponsor.username} FROM ${members} JOIN ${sponsor} ON ${sponsor.id} = ${members.parentId} WHERE ${members.id} = ${7}`],
  ['placeholders, dates, arrays and identifiers among values', sql`SELECT ${sql.placeholder('p')}, ${since}, ${[1, 2, 3]}, ${sql.identifier('t')}, ${8} FROM x WHERE ${sessions.expiresAt} > ${since}`],
  ['values written inline', sql`SELECT ${sql`${"it's"}, ${3}`.inlineParams()}, ${9}`],
  [
    'a built select with encoded parameters and a sub-select',
    qb
      .select({ id: members.id, name: members.username, n: sql<number>`count(*)`.as('n') })
      .from(members)
      .innerJoin(sessions, eq(sessions.memberId, members.id))
      .where(and(eq(members.username, 'demo'), gt(sessions.expiresAt, since), isNull(sessions.revokedAt), inArray(members.id, qb.select({ id: sponsor.id }).from(sponsor).where(eq(sponsor.status, 1)))))
      .groupBy(members.id)
      .orderBy(desc(members.id))
      .limit(5)
      .getSQL(),
  ],
];

it.each(statements)('writes %s as drizzle does', (_name, statement) => {
  expect(writeSql(statement, config())).toStrictEqual(statement.toQuery(config()));
});

it('runs a database’s statements written so', async () => {
  const database = await openDatabase({ dataDir: null, databaseUrl: null });
  try {
    await migrate(database);
    const rows = await database.db.select({ id: members.id }).from(members).where(and(eq(members.username, 'nobody'), gt(members.id, 0)));
    expect(rows).toEqual([]);
    expect(await database.rows(sql`SELECT ${2}::int + ${3}::int AS sum, ${'x'}::text AS t`)).toEqual([{ sum: 5, t: 'x' }]);
  } finally {
    await database.close();
  }
});

it('where checked, a statement drizzle would write otherwise is refused; unchecked, it is written in one pass', () => {
  // A dialect whose own writing differs from the one-pass writing (as a later drizzle might).
  class Annotating extends PgDialect {
    override sqlToQuery(q: SQL, s?: 'indexes') {
      const r = super.sqlToQuery(q, s);
      return { ...r, sql: `${r.sql} /* v2 */` };
    }
  }
  const checked = new Annotating();
  fasterSqlText(checked, true);
  expect(() => checked.sqlToQuery(sql`SELECT ${1}`)).toThrow(SqlTextMismatchError);
  const unchecked = new Annotating();
  fasterSqlText(unchecked, false);
  expect(unchecked.sqlToQuery(sql`SELECT ${1}`)).toStrictEqual({ sql: 'SELECT $1', params: [1], typings: ['none'] });
});
