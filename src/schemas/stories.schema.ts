/**
 * Stories and events pages (spec §2 /member/story, /member/events, /member/event/{id}; §3 Article, Story
 * list item, Event): the paged lists and the detail answers. The items are the Home answers' own shapes.
 */
import * as z from 'zod/mini';
import { eventSchema, storyItemSchema } from './home.schema';
import { cursorParam, limitParam, oneOfParam, SORTS, textParam } from './list-query.schema';

export const storyPageSchema = z.object({ items: z.array(storyItemSchema), next_page_url: z.nullable(z.string()) });
/** A video as its page shows it: the list item and its description. */
export const videoSchema = storyItemSchema;

export const EVENT_WHEN = ['upcoming', 'past'] as const;
export type EventWhen = (typeof EVENT_WHEN)[number];
export const TAG_MAX = 40;

/** GET /api/stories/articles and /videos: cursor-paged, newest first. */
export const storiesQuerySchema = z.looseObject({ cursor: z.optional(cursorParam()), limit: z.optional(limitParam()) });
export type StoriesQuery = z.output<typeof storiesQuerySchema>;

/** GET /api/events: upcoming (soonest first, the default) or past (latest first), optionally one tag. */
export const eventsQuerySchema = z.looseObject({
  when: z.optional(oneOfParam(EVENT_WHEN)),
  tag: z.optional(textParam('validation:tooLong', z.maxLength(TAG_MAX, { error: 'validation:tooLong' }))),
  sort: z.optional(oneOfParam(SORTS)),
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
});
export type EventsQuery = z.output<typeof eventsQuerySchema>;

/** The events page's URL: which list and which tag. */
export interface EventsSearch {
  when?: EventWhen;
  tag?: string;
}

export const eventPageSchema = z.object({ items: z.array(eventSchema), next_page_url: z.nullable(z.string()) });
export const eventTagsSchema = z.array(z.string());
