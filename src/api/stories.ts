/**
 * Stories and events calls (spec §2 /member/story, /member/events, /member/event/{id}): the paged article and
 * video lists, one article (sanitised HTML), one video, the events (upcoming or past, one tag), their tags,
 * one event, and its calendar file (.ics, saved under the name the server gives it).
 */
import * as z from 'zod/mini';
import { get } from './client';
import { download } from './download';
import { articleSchema, eventSchema, storyItemSchema } from '../schemas/home.schema';
import { eventPageSchema, eventsQuerySchema, eventTagsSchema, storiesQuerySchema, storyPageSchema, type EventsQuery, type StoriesQuery } from '../schemas/stories.schema';

const idPath = (id: number) => encodeURIComponent(String(id));

export const storiesApi = {
  articles: (query: StoriesQuery, signal?: AbortSignal) => get(storyPageSchema, '/api/stories/articles', z.parse(storiesQuerySchema, query) as Record<string, string>, { signal }),
  videos: (query: StoriesQuery, signal?: AbortSignal) => get(storyPageSchema, '/api/stories/videos', z.parse(storiesQuerySchema, query) as Record<string, string>, { signal }),
  article: (id: number) => get(articleSchema, `/api/stories/articles/${idPath(id)}`),
  video: (id: number) => get(storyItemSchema, `/api/stories/videos/${idPath(id)}`),
  events: (query: EventsQuery, signal?: AbortSignal) => get(eventPageSchema, '/api/events', z.parse(eventsQuerySchema, query) as Record<string, string>, { signal }),
  eventTags: (signal?: AbortSignal) => get(eventTagsSchema, '/api/events/tags', undefined, { signal }),
  event: (id: number) => get(eventSchema, `/api/events/${idPath(id)}`),
  /** The event's .ics file; answers the name it was saved under. */
  downloadCalendar: (id: number) => download(`/api/events/${idPath(id)}/calendar`),
};
