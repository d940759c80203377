/**
 * Stories and events (spec §2 /member/story, /member/events, /member/event/{id}; §3 Article, Story list item,
 * Event): the paged lists, one article (its HTML through the one sanitiser, every time it is served), one
 * video, one event and its calendar file (RFC 5545), and what the company's staff add (the operator's
 * `article add` / `event add`, from a JSON file or Markdown with front matter).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { notFound, validationError } from './errors';
import { EVENT_COLUMNS, toArticle, toEvent } from './home';
import type { Keyed } from './list-endpoint';
import { rowsOf, type Executor } from './ledger';
import type { ListQuery } from './pagination';
import { sanitizeHtml } from './sanitize';
import type { Article, HomeEvent, StoryItem } from '../../src/schemas/home.schema';
import type { EventWhen } from '../../src/schemas/stories.schema';

const iso = (v: unknown) => new Date(v as string).toISOString();

interface StoryDbRow {
  id: number;
  title: string;
  description: string;
  content: string;
  url: string | null;
  image_preview: string | null;
  updated_at: string | Date;
}

const storyItem = (r: StoryDbRow): StoryItem => ({
  id: r.id,
  title: r.title,
  description: r.description,
  url: r.url,
  image_preview: r.image_preview,
  updated_at: iso(r.updated_at),
});

/** Rows keyed by (updated_at, id): the list is newest first, as the dashboard's recent stories. */
const keyed = <T extends object>(item: T & { id: number }, at: unknown): Keyed<T & { id: number }> => ({ ...item, _at: new Date(at as string), _id: item.id });

/** The published articles or videos of a page (the member only opens the list; stories are the company's). */
export function storyRows(kind: 'article' | 'video') {
  return async (db: Db, _member: MemberRow, q: ListQuery, _f: unknown, limit: number): Promise<Keyed<StoryItem>[]> => {
    const rows = await rowsOf<StoryDbRow>(
      db,
      sql`SELECT id, title, description, content, url, image_preview, updated_at FROM stories
          WHERE kind = ${kind} AND published AND ${q.afterCursorSql(sql`updated_at`, sql`id`)}
          ORDER BY ${q.orderSql(sql`updated_at`, sql`id`)} LIMIT ${limit}`,
    );
    return rows.map((r) => keyed(storyItem(r), r.updated_at));
  };
}

async function storyRow(db: Executor, kind: 'article' | 'video', id: number): Promise<StoryDbRow> {
  const [r] = await rowsOf<StoryDbRow>(
    db,
    sql`SELECT id, title, description, content, url, image_preview, updated_at FROM stories WHERE id = ${id} AND kind = ${kind} AND published`,
  );
  if (!r) throw notFound();
  return r;
}

/** GET /api/stories/articles/{id}: the article, its content sanitised. */
export async function articleById(db: Executor, id: number): Promise<Article> {
  return toArticle(await storyRow(db, 'article', id));
}

/** GET /api/stories/videos/{id}. */
export async function videoById(db: Executor, id: number): Promise<StoryItem> {
  return storyItem(await storyRow(db, 'video', id));
}

// ── Events ────────────────────────────────────────────────────────────────────────────────────────

export interface EventFilters {
  when: EventWhen;
  tag?: string;
}

/**
 * GET /api/events: upcoming events (not over yet, by start) or past ones (over, by end), one tag or all.
 * The order is the query's sort (the page sends asc for upcoming: soonest first; desc for past: latest first).
 */
export function eventRows(now: () => Date = () => new Date()) {
  return async (db: Db, _member: MemberRow, q: ListQuery, f: EventFilters, limit: number): Promise<Keyed<HomeEvent>[]> => {
    const at = now().toISOString();
    const col = f.when === 'past' ? sql`end_date` : sql`start_date`;
    const rows = await rowsOf(
      db,
      sql`SELECT ${EVENT_COLUMNS} FROM events
          WHERE published AND ${f.when === 'past' ? sql`end_date < ${at}::timestamptz` : sql`end_date >= ${at}::timestamptz`}
            ${f.tag ? sql`AND lower(tag) = lower(${f.tag})` : sql``}
            AND ${q.afterCursorSql(col, sql`id`)}
          ORDER BY ${q.orderSql(col, sql`id`)} LIMIT ${limit}`,
    );
    return rows.map((r) => keyed(toEvent(r), f.when === 'past' ? r.end_date : r.start_date));
  };
}

/** The tags of published events, for the filter. */
export async function eventTags(db: Executor): Promise<string[]> {
  const rows = await rowsOf<{ tag: string }>(db, sql`SELECT DISTINCT tag FROM events WHERE published AND tag IS NOT NULL AND tag <> '' ORDER BY tag`);
  return rows.map((r) => r.tag);
}

export async function eventById(db: Executor, id: number): Promise<HomeEvent> {
  const [r] = await rowsOf(db, sql`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ${id} AND published`);
  if (!r) throw notFound();
  return toEvent(r);
}

// ── Calendar file (RFC 5545) ──────────────────────────────────────────────────────────────────────

/** TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, line breaks. */
export function icsText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** A UTC DATE-TIME: 20261201T180000Z. */
export const icsTime = (d: Date | string) => new Date(d).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** Lines longer than 75 octets folded with CRLF + space (§3.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += ch;
    bytes += n;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** The event as a VCALENDAR with one VEVENT: UTC times, escaped text, CRLF line ends. */
export function eventCalendar(e: HomeEvent, opts: { host: string; url?: string; now?: Date }): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Upline//Member back office//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:event-${e.id}@${opts.host}`,
    `DTSTAMP:${icsTime(opts.now ?? new Date())}`,
    `LAST-MODIFIED:${icsTime(e.updated_at)}`,
    `DTSTART:${icsTime(e.start_date)}`,
    `DTEND:${icsTime(e.end_date)}`,
    `SUMMARY:${icsText(e.title)}`,
    `LOCATION:${icsText(e.venue)}`,
    ...(e.about ? [`DESCRIPTION:${icsText(e.about)}`] : []),
    ...(e.tag ? [`CATEGORIES:${icsText(e.tag)}`] : []),
    ...(opts.url ? [`URL:${opts.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

// ── What staff add (operator) ─────────────────────────────────────────────────────────────────────

/**
 * A JSON object, or Markdown with front matter: `---` lines around `key: value` pairs, then the body (the
 * article's content, or the event's description). Values may be quoted ("…" or '…').
 */
export function parseContentFile(textIn: string, name: string): { fields: Record<string, string>; body: string } {
  const raw = textIn.replace(/^\uFEFF/, '');
  if (name.toLowerCase().endsWith('.json')) {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      throw validationError({ file: ['validation:malformedBody'] }, 'The file is not valid JSON.');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw validationError({ file: ['validation:malformedBody'] }, 'The JSON file must hold one object.');
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(data)) if (v !== null && v !== undefined) fields[k] = String(v);
    return { fields, body: fields.content ?? fields.about ?? '' };
  }
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(raw);
  if (!m) throw validationError({ file: ['validation:malformedBody'] }, 'A Markdown file starts with front matter between --- lines.');
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) throw validationError({ file: ['validation:malformedBody'] }, `Front matter line not understood: ${line}`);
    fields[kv[1]] = kv[2].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: m[2].trim() };
}

/** Markdown as HTML: paragraphs, # headings, **bold**, *italic*, [links](url), - lists. Text is escaped first. */
export function markdownToHtml(md: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const inline = (s: string) =>
    esc(s)
      .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
      .replace(/\*(.+?)\*/g, '<em>$1</em>')
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
  const blocks = md.replace(/\r\n?/g, '\n').split(/\n{2,}/).map((b) => b.trim()).filter(Boolean);
  return blocks
    .map((b) => {
      const h = /^(#{1,4})\s+(.*)$/.exec(b);
      if (h) return `<h${h[1].length + 1}>${inline(h[2])}</h${h[1].length + 1}>`;
      const lines = b.split('\n');
      if (lines.every((l) => /^[-*]\s+/.test(l))) return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^[-*]\s+/, ''))}</li>`).join('')}</ul>`;
      if (/^\s*</.test(b)) return b;
      return `<p>${lines.map(inline).join('<br>')}</p>`;
    })
    .join('\n');
}

const need = (fields: Record<string, string>, key: string, errors: Record<string, string[]>, max = 300) => {
  const v = (fields[key] ?? '').trim();
  if (!v) errors[key] = ['validation:required'];
  else if (v.length > max) errors[key] = ['validation:tooLong'];
  return v;
};
const safeUrl = (v: string | undefined, key: string, errors: Record<string, string[]>) => {
  if (!v?.trim()) return null;
  const u = v.trim();
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  try {
    if (new URL(u).protocol === 'https:') return u;
  } catch {
    // refused below
  }
  errors[key] = ['validation:invalidFormat'];
  return null;
};
const when = (v: string, key: string, errors: Record<string, string[]>) => {
  const d = new Date(v);
  if (!v || Number.isNaN(d.getTime()) || !/(Z|[+-]\d{2}:?\d{2})$/.test(v)) {
    errors[key] ??= ['validation:invalidDate'];
    return null;
  }
  return d;
};

/** `article add` / `video add`: a story from a file; the HTML is kept as written (it is sanitised whenever served). */
export async function addStory(db: Executor, kind: 'article' | 'video', file: { text: string; name: string }): Promise<StoryItem> {
  const { fields, body } = parseContentFile(file.text, file.name);
  const errors: Record<string, string[]> = {};
  const title = need(fields, 'title', errors, 200);
  const description = (fields.description ?? '').trim();
  const content = kind === 'article' ? (file.name.toLowerCase().endsWith('.json') ? body : markdownToHtml(body)) : '';
  if (kind === 'article' && !content.trim()) errors.content = ['validation:required'];
  if (kind === 'article' && !sanitizeHtml(content).trim()) errors.content = ['validation:required'];
  const url = safeUrl(fields.url, 'url', errors);
  if (kind === 'video' && !url) errors.url ??= ['validation:required'];
  const image = safeUrl(fields.image ?? fields.image_preview, 'image', errors);
  if (Object.keys(errors).length) throw validationError(errors);
  const [r] = await rowsOf<StoryDbRow>(
    db,
    sql`INSERT INTO stories (kind, title, description, content, url, image_preview) VALUES (${kind}, ${title}, ${description}, ${content}, ${url}, ${image})
        RETURNING id, title, description, content, url, image_preview, updated_at`,
  );
  return storyItem(r);
}

/** `event add`: an event from a file (start and end as ISO 8601 instants with a zone). */
export async function addEvent(db: Executor, file: { text: string; name: string }): Promise<HomeEvent> {
  const { fields, body } = parseContentFile(file.text, file.name);
  const errors: Record<string, string[]> = {};
  const title = need(fields, 'title', errors, 200);
  const venue = need(fields, 'venue', errors, 300);
  const start = when(fields.start_date ?? fields.start ?? '', 'start_date', errors);
  const end = when(fields.end_date ?? fields.end ?? '', 'end_date', errors);
  if (start && end && end < start) errors.end_date = ['validation:endBeforeStart'];
  const tag = (fields.tag ?? '').trim() || null;
  if (tag && tag.length > 40) errors.tag = ['validation:tooLong'];
  const image = safeUrl(fields.image ?? fields.image_preview, 'image', errors);
  if (Object.keys(errors).length) throw validationError(errors);
  const [r] = await rowsOf(
    db,
    sql`INSERT INTO events (title, venue, about, image_preview, tag, start_date, end_date)
        VALUES (${title}, ${venue}, ${body || (fields.about ?? '')}, ${image}, ${tag}, ${start!.toISOString()}::timestamptz, ${end!.toISOString()}::timestamptz)
        RETURNING ${EVENT_COLUMNS}`,
  );
  return toEvent(r);
}
