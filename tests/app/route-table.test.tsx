/**
 * The member route table: every member path of spec §2 has its entry, and one entry is all a page
 * needs — the guard, the menu rule and the URL sync all come from it.
 */
import { act, renderHook, screen, waitFor as waitForDom, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSelector } from '@xstate/react';
import { assign, setup } from 'xstate';
import { Route, useRouter } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import * as z from 'zod/mini';
import { MemberArea } from '../../src/app/member-area';
import { page, resolveMemberRoute } from '../../src/app/member/member-page';
import { SESSION, type MemberRoute } from '../../src/app/member/member-route';
import { MEMBER_ROUTES } from '../../src/app/member/route-table';
import { setReplayedPageSnapshots } from '../../src/app/member/page-actor';
import { captureSupportSnapshot, browserSnapshotEnv } from '../../src/lib/support-snapshot';
import { supportTrail } from '../../src/lib/support-trail';
import { buildMenu, menuSwitches, type Permission } from '../../src/lib/menu';
import { createSearchCodec } from '../../src/lib/search-codec';
import { positiveIntNumber, usernameParam } from '../../src/schemas/list-query.schema';
import { renderWithSession } from '../support/render';
import { sessionHarness } from '../support/session-harness';
import { moduleData, user } from '../support/session-fixtures';
import { SPEC_PATHS } from '../support/member-paths';


/** Pages built today (everything else is a redirect or "coming soon"). */
const BUILT = [
  '/account', '/account/faqs', '/account/more', '/account/intro-video',
  '/home/dashboard', '/home/binary', '/home/package', '/home/rank', '/notifications',
  '/account/password', '/account/bank', '/account/payout', '/account/notification/email', '/account/notification/push', '/account/language', '/account/currency', '/account/date-format',
  '/account/addresses', '/account/addresses/new', '/account/addresses/12',
  '/account/email', '/account/email/otp', '/account/phone', '/account/phone/otp', '/account/wallet-password', '/account/two-factor', '/kyc', '/account/basic',
  '/wallet/statement', '/wallet/earning', '/wallet/payout', '/wallet/request-payout',
  '/wallet/transactions', '/wallet/recent-earnings', '/wallet/recent-payouts', '/pv-history', '/binary-history',
  '/orders', '/orders/381', '/network/genealogy', '/network/tabular', '/network/downline', '/downlines',
  '/referral/summary', '/referral/recruiter', '/referral/earner', '/referral/joinings',
  '/shopping/products', '/shopping/products/4', '/shopping/cart', '/shopping/checkout', '/payment/stripe/success',
  '/packages/payment', '/otc/request-payment', '/otc/make-payment', '/otc/payment-history',
  '/signup', '/signup/otp', '/signup/success',
  '/crm/index', '/crm/dashboard', '/crm/dashboard/analytics',
  '/crm/leads', '/crm/leads/new', '/crm/leads/7', '/crm/contacts', '/crm/meetings', '/crm/meetings/new', '/crm/calls', '/crm/calls/new',
  '/crm/sales', '/crm/sales/new', '/crm/sales/7', '/crm/invoices', '/crm/invoices/7',
  '/mail/inbox', '/mail/sent', '/mail/sent-item', '/mail/sent-item/3', '/mail/compose', '/mail/conversation', '/mail/conversation/3',
  '/story/article', '/story/article/5', '/story/video', '/story/video/5', '/events', '/event/9', '/support',
];

/** wouter's own path matcher. */
const routerParser = () => renderHook(() => useRouter().parser).result.current;

describe('the member route table', () => {

  it('has an entry for every member path of spec §2, and no entry the spec does not name', () => {
    const parser = routerParser();
    const missing = SPEC_PATHS.filter((p) => !resolveMemberRoute(MEMBER_ROUTES, parser, p));
    expect(missing).toEqual([]);
    // Each entry is the one some spec path opens (the first match, as the router takes it)…
    const unused = MEMBER_ROUTES.filter((r) => !SPEC_PATHS.some((p) => resolveMemberRoute(MEMBER_ROUTES, parser, p) === r));
    // …but the one that sends an unknown home tab to the dashboard, and pages the spec does not name: the member
    // signup's last step (after /signup and /signup/otp), the CRM's board, lead editing by id, contact pages and
    // meeting editing by id,
    // the account deletion's own page (spec §5, §7 DELETE /api/users names the call, not a path), and a support
    // ticket's pages under /support.
    expect(unused.map((r) => r.path)).toEqual([
      '/home/:tab',
      '/signup/success',
      '/crm/leads/board',
      '/crm/leads/edit/:id',
      '/crm/contacts/new',
      '/crm/contacts/import',
      '/crm/contacts/edit/:id',
      '/crm/contacts/:id',
      '/crm/meetings/edit/:id',
      '/account/delete',
      '/support/new',
      '/support/tickets/:id',
    ]);
    expect(resolveMemberRoute(MEMBER_ROUTES, parser, '/home/elsewhere')).toMatchObject({ kind: 'redirect', to: '/home/dashboard' });
  });

  it('runs every built page on the page component (or as a static screen); the rest are redirects or "coming soon"', () => {
    const parser = routerParser();
    for (const p of SPEC_PATHS) {
      const kind = resolveMemberRoute(MEMBER_ROUTES, parser, p)!.kind;
      // A built screen without a flow of its own (the menu's "more", the intro video) is static.
      if (BUILT.includes(p)) expect(['page', 'static'], p).toContain(kind);
      else expect(['redirect', 'comingSoon'], p).toContain(kind);
    }
  });

  it('keeps the trees in memory only, and says why', () => {
    const parser = routerParser();
    for (const p of ['/network/genealogy', '/network/tabular']) {
      const route = resolveMemberRoute(MEMBER_ROUTES, parser, p);
      expect(route?.kind === 'page' && route.persist).toMatchObject({ kind: 'memory', reason: expect.stringMatching(/tens of thousands/) });
    }
  });

  it('keeps the pages with chosen files in memory only (files cannot be saved in the tab)', () => {
    const parser = routerParser();
    for (const p of ['/kyc', '/account/basic']) {
      const route = resolveMemberRoute(MEMBER_ROUTES, parser, p);
      expect(route?.kind === 'page' && route.persist).toMatchObject({ kind: 'memory', reason: expect.stringMatching(/files/) });
    }
  });
});

// ── One test-only entry: guard, menu and URL sync ────────────────────────────────────────────────────

interface Query {
  term?: string;
  page?: number;
}

/** Remembers every query it was given (its input, then each `search.set`). */
const searchMachine = setup({
  types: {
    context: {} as { query: Query; seen: Query[] },
    events: {} as { type: 'search.set'; query: Query },
    input: {} as { query: Query },
  },
}).createMachine({
  id: 'testSearch',
  context: ({ input }) => ({ query: input.query, seen: [input.query] }),
  on: {
    'search.set': { actions: assign({ query: ({ event }) => event.query, seen: ({ context, event }) => [...context.seen, event.query] }) },
  },
});

/** Only affiliates of companies with events on (a rule no real entry has). */
const eventsAffiliates: Permission = {
  allows: ({ switches, user: u }) => switches.events && u.role_id === 3,
  deniedKey: 'common:shell.forbidden',
};

/** The page's query schema: the URL codec is made from it, as for every list query. */
const queryCodec = createSearchCodec(z.object({ term: z.optional(usernameParam), page: z.optional(positiveIntNumber) }));

const testEntry: MemberRoute = page(
  '/test/search',
  {
    id: 'test.search',
    machine: searchMachine,
    input: ({ url }) => ({ query: url }),
    url: {
      codec: queryCodec,
      follow: { current: (s) => s.context.query, event: (query) => ({ type: 'search.set' as const, query }) },
    },
    persist: SESSION,
    view: ({ actor, url, setUrl }) => {
      const shown = useSelector(actor, (s) => s.context.query.term ?? 'none');
      return (
        <section aria-label="Test search">
          <p>Actor term: {shown}</p>
          <p>URL term: {url.term ?? 'none'}</p>
          <button type="button" onClick={() => setUrl({ term: 'ada', page: 2 })}>
            Search ada
          </button>
        </section>
      );
    },
  },
  { permission: eventsAffiliates, menu: { section: 'kyc' } },
);

/** The same page kept in memory only, refreshed ('search.set' to a marker) when opened on a restored state. */
const memoryEntry: MemberRoute = page(
  '/test/memory',
  {
    id: 'test.memory',
    machine: searchMachine,
    input: ({ url }) => ({ query: url }),
    url: { codec: queryCodec, follow: { current: (s) => s.context.query, event: (query) => ({ type: 'search.set' as const, query }) } },
    persist: { kind: 'memory', reason: 'a test page' },
    refresh: { type: 'search.set', query: { term: 'refreshed' } },
    view: ({ actor }) => (
      <p>
        Memory term: {useSelector(actor, (s) => s.context.query.term ?? 'none')}, queries seen: {useSelector(actor, (s) => s.context.seen.map((q) => q.term).join(' '))}
      </p>
    ),
  },
  { permission: eventsAffiliates },
);

function renderMember(path: string, modules: Partial<ReturnType<typeof moduleData>['modules']>, role_id: 1 | 2 | 3 = 3) {
  window.history.replaceState(null, '', path);
  const md = moduleData();
  const h = sessionHarness({
    path: '/member',
    moduleData: { ...md, modules: { ...md.modules, ...modules } },
    boot: () => Promise.resolve({ user: user({ role_id }), expired: false }),
  });
  renderWithSession(
    <Route path="/member" nest>
      <MemberArea routes={[...MEMBER_ROUTES, testEntry, memoryEntry]} />
    </Route>,
    { actor: h.actor },
  );
  return h;
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe('a page added as one table entry', () => {
  it('the menu shows it exactly when its permission allows', () => {
    const md = moduleData();
    const on = menuSwitches({ ...md.modules, events: true, kyc: false });
    const off = menuSwitches({ ...md.modules, events: false, kyc: false });
    const link = (menu: ReturnType<typeof buildMenu>) => menu.find((e) => e.id === 'kyc')?.link;
    expect(link(buildMenu([testEntry], on, { role_id: 3, account_type: 'personal' }))).toBe('/member/test/search');
    expect(link(buildMenu([testEntry], off, { role_id: 3, account_type: 'personal' }))).toBeUndefined();
    expect(link(buildMenu([testEntry], on, { role_id: 2, account_type: 'personal' }))).toBeUndefined();
  });

  it('a member it does not allow gets the forbidden view, and no menu entry', async () => {
    renderMember('/member/test/search?term=bob', { events: true, kyc: false }, 2);
    expect(await screen.findByRole('heading', { name: 'This page is not available for your account.' }, { timeout: 15000 })).toBeInTheDocument();
    expect(screen.queryByText(/Actor term/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'KYC' })).not.toBeInTheDocument();
  });

  it('the URL is the actor’s input; a changed query string reaches the actor; the view’s change writes the URL', async () => {
    renderMember('/member/test/search?term=bob', { events: true, kyc: false });
    const view = await screen.findByRole('region', { name: 'Test search' }, { timeout: 15000 });
    expect(within(view).getByText('Actor term: bob')).toBeInTheDocument();
    // The menu leads to it.
    expect(screen.getAllByRole('link', { name: 'KYC' })[0]).toHaveAttribute('href', '/member/test/search');

    // The view writes the URL; the actor follows the URL.
    await userEvent.click(within(view).getByRole('button', { name: 'Search ada' }));
    expect(window.location.pathname + window.location.search).toBe('/member/test/search?term=ada&page=2');
    expect(await within(view).findByText('Actor term: ada')).toBeInTheDocument();
    expect(within(view).getByText('URL term: ada')).toBeInTheDocument();

    // Back, a pasted link: any change of the query string reaches the actor, once.
    act(() => navigate('/member/test/search?term=cy'));
    expect(await within(view).findByText('Actor term: cy')).toBeInTheDocument();
    // A query the schema rejects falls back to no filter.
    act(() => navigate('/member/test/search?page=-4'));
    expect(await within(view).findByText('Actor term: none')).toBeInTheDocument();

    // Its state is saved in this tab under the page's key.
    await waitForDom(() => {
      const saved = JSON.parse(sessionStorage.getItem('upline.page.test.search') ?? '{}') as { snapshot?: { context?: { seen?: Query[] } } };
      expect(saved.snapshot?.context?.seen).toEqual([{ term: 'bob' }, { term: 'ada', page: 2 }, { term: 'cy' }, {}]);
    });
  });

  it('a filter the view writes adds a history entry: Back restores the previous filter and stays on the page', async () => {
    renderMember('/member/test/search?term=bob', { events: true, kyc: false });
    const view = await screen.findByRole('region', { name: 'Test search' }, { timeout: 15000 });
    const before = window.history.length;
    await userEvent.click(within(view).getByRole('button', { name: 'Search ada' }));
    expect(await within(view).findByText('Actor term: ada')).toBeInTheDocument();
    expect(window.history.length).toBe(before + 1);
    act(() => window.history.back());
    expect(await within(view).findByText('Actor term: bob')).toBeInTheDocument();
    expect(within(view).getByText('URL term: bob')).toBeInTheDocument();
    expect(window.location.pathname + window.location.search).toBe('/member/test/search?term=bob');
  });

  it('a page opened again in the tab starts from its saved state, then follows the URL', async () => {
    const restored = { term: 'zed' };
    sessionStorage.setItem(
      'upline.page.test.search',
      JSON.stringify({ v: 1, snapshot: { status: 'active', value: {}, context: { query: restored, seen: [{ term: 'old' }, restored] }, children: {}, historyValue: {} } }),
    );
    renderMember('/member/test/search?term=yan', { events: true, kyc: false });
    const view = await screen.findByRole('region', { name: 'Test search' }, { timeout: 15000 });
    expect(await within(view).findByText('Actor term: yan')).toBeInTheDocument();
    await waitForDom(() => {
      const saved = JSON.parse(sessionStorage.getItem('upline.page.test.search') ?? '{}') as { snapshot?: { context?: { seen?: Query[] } } };
      expect(saved.snapshot?.context?.seen).toEqual([{ term: 'old' }, { term: 'zed' }, { term: 'yan' }]);
    });
  });

  it('a page the member left, kept in memory only, is in a support snapshot as it was left, with its URL', async () => {
    renderMember('/member/test/memory?term=kim', { events: true, kyc: false });
    expect(await screen.findByText('Memory term: kim, queries seen: kim', undefined, { timeout: 15000 })).toBeInTheDocument();
    act(() => navigate('/member/nowhere'));
    await waitForDom(() => expect(screen.queryByText(/Memory term/)).not.toBeInTheDocument());
    expect(sessionStorage.getItem('upline.page.test.memory')).toBeNull();
    const left = captureSupportSnapshot(browserSnapshotEnv()).pages.find((p) => p.key === 'test.memory');
    expect(left).toMatchObject({ url: '/member/test/memory?term=kim', path: '/test/memory', machine: 'testSearch' });
    expect((left?.snapshot as { context: { query: Query } }).context.query).toEqual({ term: 'kim' });
    supportTrail.clear();
  });

  it('in the support replay a page opens on the member’s state, is not refreshed and saves nothing', async () => {
    const replayed = { status: 'active', value: {}, context: { query: { term: 'kim' }, seen: [{ term: 'old' }, { term: 'kim' }] }, children: {}, historyValue: {} };
    setReplayedPageSnapshots(new Map([['test.memory', replayed]]));
    try {
      renderMember('/member/test/memory?term=kim', { events: true, kyc: false });
      expect(await screen.findByText('Memory term: kim, queries seen: old kim', undefined, { timeout: 15000 })).toBeInTheDocument();
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.getByText('Memory term: kim, queries seen: old kim')).toBeInTheDocument();
      expect(Object.keys(sessionStorage).filter((k) => k.startsWith('upline.page.'))).toEqual([]);
    } finally {
      setReplayedPageSnapshots(null);
    }
  });
});
