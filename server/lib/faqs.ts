/**
 * The company's questions and answers (spec §6 "Always present: FAQs"), in the member's language (their
 * saved language, else the company's default; English when that language has none), searchable by a
 * keyword in the question or the answer's text. Answers are HTML and leave through the one sanitiser.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { Faq } from '../../src/schemas/account-hub.schema';
import { keyedRow, type Keyed } from './list-endpoint';
import { rowsOf } from './ledger';
import type { ListQuery } from './pagination';
import { sanitizeHtml } from './sanitize';

export interface FaqFilters {
  keyword?: string;
}

type FaqRow = Keyed<Faq>;

/** `%`, `_` and `\` are matched as themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function faqRows(db: Db, member: MemberRow, q: ListQuery, filters: FaqFilters, limit: number): Promise<FaqRow[]> {
  const wanted = sql`coalesce(${member.languageCode}, (SELECT code FROM languages WHERE is_default ORDER BY id LIMIT 1), 'en')`;
  const language = sql`(CASE WHEN EXISTS (SELECT 1 FROM faqs WHERE language_code = ${wanted}) THEN ${wanted} ELSE 'en' END)`;
  const keyword = filters.keyword
    ? sql`(question ILIKE ${likePattern(filters.keyword)} OR regexp_replace(answer, '<[^>]*>', ' ', 'g') ILIKE ${likePattern(filters.keyword)})`
    : sql`TRUE`;
  const rows = await rowsOf<{ id: number; question: string; answer: string; created_at: string }>(
    db,
    sql`SELECT id, question, answer, created_at FROM faqs
        WHERE language_code = ${language} AND ${keyword} AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => keyedRow(r.id, r.created_at, { question: r.question, answer: sanitizeHtml(r.answer) }));
}
