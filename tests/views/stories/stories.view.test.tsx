/**
 * Stories and events with the calls faked: the article and video lists (loading, rows linking to their
 * pages with image or thumbnail, empty, errors with retry, 401), an article (its HTML shown safely, image,
 * share links), a video (its player, a link out for an address that cannot be embedded), the events
 * (upcoming/past, by tag) and one event with "add to calendar".
 */
import { act, fireEvent, screen, within, waitFor as waitForUi } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Article, HomeEvent, StoryItem } from '../../../src/schemas/home.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';
import { videoThumbnail } from '../../../src/lib/video-thumbnail';

const api = vi.hoisted(() => ({ articles: vi.fn(), videos: vi.fn(), article: vi.fn(), video: vi.fn(), events: vi.fn(), eventTags: vi.fn(), event: vi.fn(), downloadCalendar: vi.fn() }));
vi.mock('../../../src/api/stories', () => ({ storiesApi: api }));

const m = await import('../../../src/machines/stories.machine');
const { ArticleView, StoryListView, VideoView } = await import('../../../src/views/stories/stories.view');
const { EventsView, EventView } = await import('../../../src/views/stories/events.view');

const ITEM: StoryItem = { id: 5, title: 'Welcome aboard', description: 'A quick tour.', url: null, image_preview: '/images/stories/summit.svg', updated_at: '2026-11-06T09:00:00.000Z' };
const YT: StoryItem = { id: 8, title: 'From the founders', description: 'Why we exist.', url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', image_preview: null, updated_at: '2026-11-03T09:00:00.000Z' };
const ARTICLE: Article = { id: 5, title: 'Welcome aboard', description: 'A quick tour.', content: '<h2>Inside</h2><p>Hi <img src="x" onerror="window.__pwned=1"><script>window.__pwned=1</script><a href="javascript:alert(1)">x</a></p>', image_preview: '/images/stories/summit.svg', updated_at: '2026-11-06T09:00:00.000Z' };
const EVENT: HomeEvent = { id: 9, title: 'Awards night', venue: 'Lisbon', about: 'Dinner and awards.\nDress code: smart.', image_preview: null, tag: 'meeting', start_date: '2099-12-19T19:00:00.000Z', end_date: '2099-12-20T00:00:00.000Z', updated_at: '2026-10-30T09:00:00.000Z' };
const page = <T,>(items: T[]) => ({ items, next_page_url: null });

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  api.eventTags.mockResolvedValue(['meeting', 'webinar']);
});

describe('article and video lists', () => {
  it('loading, then each story linking to its page with its picture; videos with their thumbnail', async () => {
    let answer!: (v: unknown) => void;
    api.articles.mockReturnValueOnce(new Promise((r) => (answer = r)));
    const articles = createActor(m.articlesListMachine, { input: { filters: {} } }).start();
    const { unmount } = renderUi(<StoryListView actor={articles} kind="article" />);
    expect(document.querySelector('[data-list-status="initialLoading"]')).not.toBeNull();
    act(() => answer(page([ITEM])));
    expect(await screen.findByRole('link', { name: 'Welcome aboard' })).toHaveAttribute('href', '/story/article/5');
    expect(screen.getByRole('img', { name: 'Image of Welcome aboard' })).toHaveAttribute('src', '/images/stories/summit.svg');
    unmount();

    api.videos.mockResolvedValueOnce(page([YT]));
    const videos = createActor(m.videosListMachine, { input: { filters: {} } }).start();
    renderUi(<StoryListView actor={videos} kind="video" />);
    expect(await screen.findByRole('link', { name: 'From the founders' })).toHaveAttribute('href', '/story/video/8');
    expect(screen.getByRole('img', { name: 'Thumbnail of From the founders' })).toHaveAttribute('src', 'https://i.ytimg.com/vi/aqz-KE-bpKQ/hqdefault.jpg');
  });

  it('empty in Spanish and the dark scheme; connection and server errors with retry; a 401 shows no error', async () => {
    api.videos.mockResolvedValueOnce(page([]));
    const videos = createActor(m.videosListMachine, { input: { filters: {} } }).start();
    const first = renderUi(<StoryListView actor={videos} kind="video" />, { lng: 'es', colorScheme: 'dark' });
    expect(await screen.findByText('Aún no hay vídeos')).toBeTruthy();
    first.unmount();

    api.articles.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const actor = createActor(m.articlesListMachine, { input: { filters: {} } }).start();
    renderUi(<StoryListView actor={actor} kind="article" />);
    expect(await screen.findByRole('heading', { name: 'No connection' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /try again|retry/i }));
    await vi.waitFor(() => expect(api.articles).toHaveBeenCalledTimes(2));
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    await waitFor(actor, (s) => s.matches('forceLogout'));
    expect(screen.queryByRole('button', { name: /try again|retry/i })).toBeNull();
  });
});

describe('an article', () => {
  it('shows its image and its HTML, never anything that runs; share links carry its address', async () => {
    api.article.mockResolvedValueOnce(ARTICLE);
    const actor = createActor(m.articleDetailMachine, { input: { params: 5 } }).start();
    renderUi(<ArticleView actor={actor} />);
    expect(await screen.findByRole('heading', { name: 'Welcome aboard', level: 1 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Inside' })).toBeTruthy();
    const article = document.querySelector('[data-article]')!;
    expect(article.querySelector('script')).toBeNull();
    expect(article.innerHTML).not.toMatch(/onerror|javascript:/);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    const share = within(document.querySelector('[data-share]') as HTMLElement);
    expect(share.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toContain(encodeURIComponent('/member/story/article/5'));
    expect(api.article).toHaveBeenCalledWith(5);
  });

  it('a story that does not exist says so; a failure can be retried', async () => {
    api.article.mockRejectedValueOnce(new ApiError('server', 500, {})).mockRejectedValueOnce(new ApiError('notFound', 404, {}));
    const actor = createActor(m.articleDetailMachine, { input: { params: 99 } }).start();
    renderUi(<ArticleView actor={actor} />);
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('heading', { name: 'Story not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to articles' })).toHaveAttribute('href', '/story/article');
  });
});

describe('a video', () => {
  it('plays YouTube in its privacy-enhanced player', async () => {
    api.video.mockResolvedValueOnce(YT);
    const actor = createActor(m.videoDetailMachine, { input: { params: 8 } }).start();
    renderUi(<VideoView actor={actor} />);
    const frame = (await screen.findByTitle('Video: From the founders')) as HTMLIFrameElement;
    expect(frame.src).toBe('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?rel=0');
  });

  it('a file plays in the browser’s player; an address that cannot be embedded is a link out', async () => {
    api.video.mockResolvedValueOnce({ ...YT, url: 'https://media.example/v.mp4' }).mockResolvedValueOnce({ ...YT, url: 'https://videos.example/page' });
    const a = createActor(m.videoDetailMachine, { input: { params: 8 } }).start();
    const first = renderUi(<VideoView actor={a} />);
    await vi.waitFor(() => expect(document.querySelector('video source')).toHaveAttribute('src', 'https://media.example/v.mp4'));
    first.unmount();
    const b = createActor(m.videoDetailMachine, { input: { params: 8 } }).start();
    renderUi(<VideoView actor={b} />);
    expect(await screen.findByRole('link', { name: 'Watch this video on its site' })).toHaveAttribute('href', 'https://videos.example/page');
  });
});

describe('the video-thumbnail builder', () => {
  it('prefers the company’s image, then YouTube’s or Vimeo’s still, else none', () => {
    expect(videoThumbnail({ url: YT.url, image_preview: '/own.png' })).toBe('/own.png');
    expect(videoThumbnail({ url: 'https://youtu.be/aqz-KE-bpKQ' }, 'medium')).toBe('https://i.ytimg.com/vi/aqz-KE-bpKQ/mqdefault.jpg');
    expect(videoThumbnail({ url: 'https://vimeo.com/76979871' })).toBe('https://vumbnail.com/76979871.jpg');
    expect(videoThumbnail({ url: 'javascript:alert(1)' })).toBeNull();
    expect(videoThumbnail({ url: null })).toBeNull();
  });
});

describe('events', () => {
  it('upcoming by default with the tags to choose from; choosing past or a tag asks for the URL to change', async () => {
    api.events.mockResolvedValue(page([EVENT]));
    const onSearch = vi.fn();
    const actor = createActor(m.eventsListMachine, { input: { filters: {} } }).start();
    renderUi(<EventsView actor={actor} search={{}} onSearch={onSearch} />);
    expect(await screen.findByRole('link', { name: 'Awards night' })).toHaveAttribute('href', '/event/9');
    expect(api.events).toHaveBeenCalledWith({ when: 'upcoming', sort: 'asc' }, expect.anything());
    fireEvent.click(screen.getByText('Past'));
    expect(onSearch).toHaveBeenCalledWith({ when: 'past' });
    fireEvent.click(screen.getAllByLabelText('Type').find((e) => e.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'webinar' }));
    expect(onSearch).toHaveBeenCalledWith({ tag: 'webinar' });
  });

  it('on a desktop the events are a table under Event, Type, When and Venue, each title opening its event', async () => {
    api.events.mockResolvedValue(page([EVENT]));
    const actor = createActor(m.eventsListMachine, { input: { filters: {} } }).start();
    renderUi(<EventsView actor={actor} search={{}} onSearch={vi.fn()} />);
    const [row] = await findTableRows();
    expect(columnHeaders(screen.getByRole('table', { name: 'Rows' }))).toEqual(['Event', 'Type', 'When', 'Venue']);
    const cells = within(row).getAllByRole('cell');
    expect(within(cells[0]).getByRole('link', { name: 'Awards night' })).toHaveAttribute('href', '/event/9');
    expect(cells[3]).toHaveTextContent(EVENT.venue);
  });

  it('on a phone the type filter waits behind the Filters button; upcoming or past stays in view', async () => {
    setViewportWidth(360);
    try {
      api.events.mockResolvedValue(page([EVENT]));
      const actor = createActor(m.eventsListMachine, { input: { filters: {} } }).start();
      renderUi(<EventsView actor={actor} search={{}} onSearch={vi.fn()} />);
      const title = await screen.findByRole('link', { name: 'Awards night' });
      expect(title.closest('[role="listitem"]')).not.toBeNull();
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.getByText('Past')).toBeVisible();
      const type = () => screen.getAllByLabelText('Type').find((e) => e.tagName === 'INPUT')!;
      expect(type()).not.toBeVisible();
      fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
      await waitForUi(() => expect(type()).toBeVisible());
    } finally {
      setViewportWidth(1280);
    }
  });

  it('past events newest first, empty says so; errors with retry', async () => {
    api.events.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(page([]));
    const actor = createActor(m.eventsListMachine, { input: { filters: { when: 'past', tag: 'meeting' } } }).start();
    renderUi(<EventsView actor={actor} search={{ when: 'past', tag: 'meeting' }} onSearch={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('No past events')).toBeTruthy();
    expect(api.events).toHaveBeenLastCalledWith({ when: 'past', sort: 'desc', tag: 'meeting' }, expect.anything());
  });

  it('one event: venue, dates, description, and "add to calendar" downloads its file (a failure says so)', async () => {
    api.event.mockResolvedValueOnce(EVENT);
    api.downloadCalendar.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce('awards-night.ics');
    const actor = createActor(m.eventDetailMachine, { input: { params: 9 } }).start();
    renderUi(<EventView actor={actor} download={(id) => api.downloadCalendar(id)} />, { lng: 'es' });
    expect(await screen.findByRole('heading', { name: 'Awards night' })).toBeTruthy();
    expect(screen.getByText('Lugar: Lisbon')).toBeTruthy();
    expect(document.querySelector('[data-event-about]')).toHaveTextContent('Dress code: smart.');
    fireEvent.click(screen.getByRole('button', { name: 'Añadir al calendario' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No se pudo descargar');
    fireEvent.click(screen.getByRole('button', { name: 'Añadir al calendario' }));
    await vi.waitFor(() => expect(api.downloadCalendar).toHaveBeenCalledTimes(2));
    expect(api.downloadCalendar).toHaveBeenCalledWith(9);
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
