/**
 * What the company publishes: articles, videos and events, each from a file — JSON (one object) or Markdown
 * with front matter (`---` lines around `key: value` pairs; the body is the article's content or the event's
 * description). See README, "Operator commands".
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { addEvent, addStory } from '../lib/stories';
import { OperatorUsageError, type OperatorArea, type OperatorCommand } from './registry';

async function fileOf(positional: string | undefined): Promise<{ text: string; name: string }> {
  if (!positional) throw new OperatorUsageError('give the file: a .json object or a .md file with front matter');
  const ext = path.extname(positional).toLowerCase();
  if (!['.json', '.md', '.markdown'].includes(ext)) throw new OperatorUsageError('the file is .json, .md or .markdown');
  try {
    return { text: await readFile(positional, 'utf8'), name: path.basename(positional) };
  } catch {
    throw new OperatorUsageError(`cannot read ${positional}`);
  }
}

const story = (kind: 'article' | 'video'): OperatorCommand => ({
  usage: 'FILE',
  summary:
    kind === 'article'
      ? 'publish an article: title, description, image (front matter or JSON keys), the content (Markdown body, or JSON "content" HTML)'
      : 'publish a video: title, description, url (https), image',
  async run({ database }, { positionals }, io) {
    const s = await addStory(database.db, kind, await fileOf(positionals[0]));
    io.out(`${kind === 'article' ? 'Article' : 'Video'} ${s.id} published: ${s.title}`);
  },
});

export const storiesOperator: OperatorArea = {
  name: 'article',
  summary: 'articles members read (stories)',
  commands: { add: story('article') },
};

export const videosOperator: OperatorArea = {
  name: 'video',
  summary: 'videos members watch (stories)',
  commands: { add: story('video') },
};

export const eventsOperator: OperatorArea = {
  name: 'event',
  summary: 'company events',
  commands: {
    add: {
      usage: 'FILE',
      summary: 'publish an event: title, venue, start_date, end_date (ISO 8601 with a zone), tag, image; the body (or "about") describes it',
      async run({ database }, { positionals }, io) {
        const e = await addEvent(database.db, await fileOf(positionals[0]));
        io.out(`Event ${e.id} published: ${e.title} (${e.start_date} – ${e.end_date})`);
      },
    },
  },
};
