/**
 * /member/story and /member/events: the article and video lists (paged, newest first), one article, one
 * video, the events (upcoming or past, one tag, from the URL; the tags come with each page for the filter)
 * and one event.
 */
import { storiesApi } from '../api/stories';
import type { HomeEvent, StoryItem } from '../schemas/home.schema';
import type { EventsSearch } from '../schemas/stories.schema';
import { createLoadMachine } from './load.machine';
import { createPagedListMachine, nextFromUrl } from './paged-list.machine';

type NoFilters = Record<string, never>;

export const articlesListMachine = createPagedListMachine<StoryItem, NoFilters>('articlesList', async ({ next, signal }) => {
  const p = await storiesApi.articles(next?.cursor ? { cursor: next.cursor } : {}, signal);
  return { items: p.items, next: nextFromUrl(p.next_page_url) };
});

export const videosListMachine = createPagedListMachine<StoryItem, NoFilters>('videosList', async ({ next, signal }) => {
  const p = await storiesApi.videos(next?.cursor ? { cursor: next.cursor } : {}, signal);
  return { items: p.items, next: nextFromUrl(p.next_page_url) };
});

export const articleDetailMachine = createLoadMachine('articleDetail', (id: number) => storiesApi.article(id));
export const videoDetailMachine = createLoadMachine('videoDetail', (id: number) => storiesApi.video(id));

export interface EventsMeta {
  tags: string[];
}

export const eventsListMachine = createPagedListMachine<HomeEvent, EventsSearch, EventsMeta>('eventsList', async ({ filters, next, signal }) => {
  const when = filters.when ?? 'upcoming';
  const [p, tags] = await Promise.all([
    storiesApi.events(
      // Upcoming: soonest first; past: the latest first.
      { when, sort: when === 'upcoming' ? 'asc' : 'desc', ...(filters.tag ? { tag: filters.tag } : {}), ...(next?.cursor ? { cursor: next.cursor } : {}) },
      signal,
    ),
    storiesApi.eventTags(signal),
  ]);
  return { items: p.items, next: nextFromUrl(p.next_page_url), meta: { tags } };
});

export const eventDetailMachine = createLoadMachine('eventDetail', (id: number) => storiesApi.event(id));

/** Save an event's calendar file (bound where the page is declared). */
export const eventCalendarDownload = (id: number) => storiesApi.downloadCalendar(id);
