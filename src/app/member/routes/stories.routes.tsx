/**
 * Stories (spec §2 /member/story: article and video, a detail under each; base → article) and events
 * (/member/events with ?when= and ?tag= in the URL, /member/event/:id with "add to calendar").
 */
import { createSearchCodec } from '../../../lib/search-codec';
import {
  articleDetailMachine,
  articlesListMachine,
  eventCalendarDownload,
  eventDetailMachine,
  eventsListMachine,
  videoDetailMachine,
  videosListMachine,
} from '../../../machines/stories.machine';
import { PERMISSIONS } from '../../../lib/menu';
import { eventsQuerySchema, type EventsSearch } from '../../../schemas/stories.schema';
import { lazyView } from '../../lazy-view';
import { page } from '../member-page';
import { redirect, SESSION, type MemberRoute, type UrlBinding } from '../member-route';
import { guarded, LOADED } from '../route-parts';

const stories = () => import('../../../views/stories/stories.view');
const events = () => import('../../../views/stories/events.view');
const StoryTabs = lazyView(() => stories().then((m) => m.StoryTabs));
const StoryListView = lazyView(() => stories().then((m) => m.StoryListView));
const ArticleView = lazyView(() => stories().then((m) => m.ArticleView));
const VideoView = lazyView(() => stories().then((m) => m.VideoView));
const EventsView = lazyView(() => events().then((m) => m.EventsView));
const EventView = lazyView(() => events().then((m) => m.EventView));

/** A positive whole record id, or -1 (the server answers not found). */
const recordId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

const eventsUrl: UrlBinding<typeof eventsListMachine, EventsSearch> = {
  codec: createSearchCodec(eventsQuerySchema, { fields: ['when', 'tag'] }),
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

const storiesOnly = { permission: PERMISSIONS.stories };

export const storiesRoutes: MemberRoute[] = [
  redirect('/story', '/story/article', storiesOnly),
  page(
    '/story/article',
    { id: 'story.articles', machine: articlesListMachine, input: () => ({ filters: {} }), persist: SESSION, view: ({ actor }) => <StoryTabs tab="article"><StoryListView actor={actor} kind="article" /></StoryTabs> },
    guarded(PERMISSIONS.stories, 'stories', 'articles'),
  ),
  page(
    '/story/article/:id',
    { id: 'story.article', machine: articleDetailMachine, input: ({ params }) => ({ params: recordId(params.id) }), ...LOADED, view: ArticleView },
    storiesOnly,
  ),
  page(
    '/story/video',
    { id: 'story.videos', machine: videosListMachine, input: () => ({ filters: {} }), persist: SESSION, view: ({ actor }) => <StoryTabs tab="video"><StoryListView actor={actor} kind="video" /></StoryTabs> },
    guarded(PERMISSIONS.stories, 'stories', 'videos'),
  ),
  page(
    '/story/video/:id',
    { id: 'story.video', machine: videoDetailMachine, input: ({ params }) => ({ params: recordId(params.id) }), ...LOADED, view: VideoView },
    storiesOnly,
  ),
  page(
    '/events',
    {
      id: 'events',
      machine: eventsListMachine,
      input: ({ url }) => ({ filters: url }),
      url: eventsUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl }) => <EventsView actor={actor} search={url} onSearch={setUrl} />,
    },
    guarded(PERMISSIONS.events, 'events'),
  ),
  page(
    '/event/:id',
    {
      id: 'event',
      machine: eventDetailMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      ...LOADED,
      view: ({ actor }) => <EventView actor={actor} download={eventCalendarDownload} />,
    },
    { permission: PERMISSIONS.events },
  ),
];
