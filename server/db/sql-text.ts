/**
 * Statements built with drizzle's `sql` and query builders written out as text and parameters in one pass.
 *
 * drizzle writes a statement out chunk by chunk, asking of every chunk, in turn, whether it is each kind
 * of entity it knows (each question walks the chunk's prototype chain) and merging one small object per
 * chunk into the next: for a statement of a few hundred chunks (a page's read with its joins, conditions and
 * sub-selects) that is a large part of what a call costs the server beyond its database work.
 *
 * `writeSql` appends the chunks that make up almost every statement straight to one text and one list of
 * parameters: text, nested statements, plain values (strings, numbers, booleans, null), columns and tables.
 * Every other chunk (placeholders, parameters with encoders, arrays, aliases, sub-queries, anything written
 * inline…) is written by drizzle itself, on its own, with the same parameter numbering — so the text and
 * parameters are drizzle's, chunk for chunk. `fasterSqlText` installs it on a database's dialect; with
 * `checked` (tests and development) every statement is also written by drizzle and must come out the same.
 */
import { Column, SQL, StringChunk, Table, type Query } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { isDeepStrictEqual } from 'node:util';

type BuildQueryConfig = Parameters<SQL['toQuery']>[0];
type Built = Query & { typings?: string[] };

const IS_ALIAS = Symbol.for('drizzle:IsAlias');
const TABLE_NAME = Symbol.for('drizzle:Name');
const TABLE_SCHEMA = Symbol.for('drizzle:Schema');
/** What the writing needs of a statement that its types keep to drizzle. */
const inlined = (q: SQL) => (q as unknown as { shouldInlineParams: boolean }).shouldInlineParams;

export class SqlTextMismatchError extends Error {}

interface Out {
  sql: string;
  params: unknown[];
  typings: string[];
}

/** `query` as drizzle's `query.toQuery(config)` writes it (text, parameters and their typings). */
export function writeSql(query: SQL, config: BuildQueryConfig): Built {
  const index = config.paramStartIndex ?? { value: 0 };
  const base: BuildQueryConfig = { ...config, paramStartIndex: index };
  const out: Out = { sql: '', params: [], typings: [] };
  write(query, query.queryChunks, !!(config.inlineParams || inlined(query)), base, index, out);
  const built: Built = { sql: out.sql, params: out.params };
  if (out.typings.length) built.typings = out.typings;
  return built;
}

function write(top: SQL, chunks: unknown[], inline: boolean, base: BuildQueryConfig, index: { value: number }, out: Out) {
  for (const chunk of chunks) {
    if (chunk instanceof StringChunk) {
      const v = chunk.value;
      out.sql += v.length === 1 ? v[0] : v.join('');
    } else if (chunk instanceof SQL) {
      write(top, chunk.queryChunks, inline || inlined(chunk), base, index, out);
    } else if (chunk === undefined) {
      // nothing
    } else if (!inline && (chunk === null || typeof chunk === 'string' || typeof chunk === 'number' || typeof chunk === 'boolean' || typeof chunk === 'bigint')) {
      out.sql += base.escapeParam(index.value++, chunk);
      out.params.push(chunk);
      out.typings.push('none');
    } else if (chunk instanceof Column && base.invokeSource !== 'indexes') {
      const column = chunk as Column & { table: Table & Record<symbol, unknown> };
      const name = base.casing.getColumnCasing(column);
      const schema = column.table[TABLE_SCHEMA] as string | undefined;
      const table = column.table[TABLE_NAME] as string;
      out.sql +=
        column.table[IS_ALIAS] || schema === undefined
          ? base.escapeName(table) + '.' + base.escapeName(name)
          : base.escapeName(schema) + '.' + base.escapeName(table) + '.' + base.escapeName(name);
    } else if (chunk instanceof Table) {
      const t = chunk as Table & Record<symbol, unknown>;
      const schema = t[TABLE_SCHEMA] as string | undefined;
      const name = t[TABLE_NAME] as string;
      out.sql += schema === undefined || t[IS_ALIAS] ? base.escapeName(name) : base.escapeName(schema) + '.' + base.escapeName(name);
    } else {
      // drizzle's own writing of this chunk, numbering its parameters from where the statement is.
      const part = (top as unknown as { buildQueryFromSourceParams(chunks: unknown[], config: BuildQueryConfig): Built }).buildQueryFromSourceParams(
        [chunk],
        { ...base, inlineParams: inline },
      );
      out.sql += part.sql;
      for (const p of part.params) out.params.push(p);
      if (part.typings) for (const t of part.typings) out.typings.push(t);
    }
  }
}

/** Statements of `dialect` written by `writeSql`; `checked`: and by drizzle, and the two compared. */
export function fasterSqlText(dialect: PgDialect, checked: boolean) {
  const d = dialect as unknown as { casing: BuildQueryConfig['casing'] };
  const original = dialect.sqlToQuery.bind(dialect);
  dialect.sqlToQuery = ((query: SQL, invokeSource?: 'indexes') => {
    const built = writeSql(query, {
      casing: d.casing,
      escapeName: dialect.escapeName,
      escapeParam: dialect.escapeParam,
      escapeString: dialect.escapeString,
      prepareTyping: dialect.prepareTyping,
      invokeSource,
    });
    if (checked) {
      const expected = original(query, invokeSource);
      if (!isDeepStrictEqual(built, expected)) throw new SqlTextMismatchError(`a statement was written otherwise than drizzle writes it: ${expected.sql}`);
    }
    return built;
  }) as PgDialect['sqlToQuery'];
}
