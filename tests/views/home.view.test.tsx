import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { homeBinaryMachine, homeDashboardMachine, homeDashboardMoreMachine, homeRankMachine, type DashboardData } from '../../src/machines/home.machine';
import type { BinarySummary, Ranks } from '../../src/schemas/home.schema';
import { BinaryView } from '../../src/views/home/binary.view';
import { DashboardView } from '../../src/views/home/dashboard.view';
import { absoluteUrl } from '../../src/lib/links';
import { RankView } from '../../src/views/home/rank.view';
import { sanitizeHtml } from '../../src/views/home/safe-html';
import { DisplayFormatProvider } from '../../src/views/member/display-format';
import { renderUi } from '../support/render-ui';

const at = '2026-01-15T10:00:00.000Z';
const dashboard: DashboardData = {
  summary: {
    user_role: 3, account_type: 'personal', is_linked: false, is_special_member: false, merchant_status: null, merchant_email: null, member_email: null,
    wallet_balance: '1234.5000', total_earnings: '2000.0000', total_paid: '765.5000', pv: '150.0000', tv: '3000.0000', cv: '10.0000',
    package_id: 2, package_name: 'Gold', package_amount: '500.0000', package_bv: '100.0000', package_expiry: at, package_purchase_date: at,
    rank_id: 1, rank_name: 'Bronze', rank_icon: null, rank_bonus: '50.0000', rank_achieved_date: at, is_highest_package: false,
    recent_joinings: [{ id: 5, first_name: 'Luis', last_name: 'Mora', joined_date: at, avatar: null }],
    recent_transactions: [{ id: 1, transaction_group: 'commission', transaction_type: 'bonus', transaction_key: 'binary_bonus', amount: '25.0000', cash_flow: 'credit', created_at: at, level: null, from_user: null, rank_name: null } as never],
    recent_articles: [], recent_videos: [], transaction_labels: { binary_bonus: 'Binary bonus' }, affiliate_products_category: null,
    credit_history: [{ month: '2025-12', total: '100.0000' }, { month: '2026-01', total: '25.0000' }],
    debit_history: [{ month: '2025-12', total: '0.0000' }, { month: '2026-01', total: '10.0000' }],
    total_investment: '500.0000', total_return: '0.0000', kyc_status: 'approved', recruitment_progress: [],
  },
  extra: { account_type: 'personal', events: [], articles: [], pv: '150.0000', tv: '3000.0000', kyc_status: 'approved', referral_criteria_enabled: false, referral_allowed: true },
  promotions: {
    events: [],
    articles: [{ id: 3, title: 'Spring launch', description: 'd', content: '<p>Hello <strong>team</strong><script>alert(1)</script><img src="x" onerror="alert(1)"></p>', image_preview: null, updated_at: at }],
  },
};

function actorOf<T extends AnyActorLogic>(machine: T, load: () => Promise<unknown>) {
  return createActor((machine as unknown as { provide: (i: unknown) => T }).provide({ actors: { load: fromPromise(load) } })).start();
}

const never = () => new Promise<never>(() => {});

/** The rest of the dashboard (extra data and promotions) as `load` answers it. */
const moreOf = (load: () => Promise<unknown>) => homeDashboardMoreMachine.provide({ actors: { load: fromPromise(load) } }) as typeof homeDashboardMoreMachine;

describe('dashboard tab', () => {
  it('shows a labelled loading skeleton while loading', () => {
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, never) as never} moreLogic={moreOf(never)} />);
    expect(screen.getByRole('status', { name: 'Loading your figures…' })).toBeInTheDocument();
  });

  it('shows the figures in the member currency, the chart summary, the referral link and sanitised article HTML', async () => {
    const eur = { id: 2, name: 'Euro', code: 'EUR', symbol: '€', symbol_position: 'R' as const, decimal_place: 2, value: '0.5' };
    renderUi(
      <DisplayFormatProvider currency={eur}>
        <DashboardView actor={actorOf(homeDashboardMachine, async () => dashboard) as never} moreLogic={moreOf(async () => dashboard)} referralLink="https://upline.test/r/demo" />
      </DisplayFormatProvider>,
    );
    const balance = await screen.findByText('Wallet balance');
    expect(within(balance.closest('[data-figure]') as HTMLElement).getByText('617.25 €')).toBeInTheDocument();
    expect(screen.getByText('Gold')).toBeInTheDocument();
    expect(screen.getByText('Approved')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /last 2 months: 62\.50 € in, 5\.00 € out/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Referral link' })).toHaveValue('https://upline.test/r/demo');
    expect(screen.getByRole('link', { name: 'Share on WhatsApp' })).toHaveAttribute('href', expect.stringContaining('wa.me'));
    // The dashboard shows an article's teaser, not its whole text.
    const article = screen.getByText('Spring launch').closest('article')!;
    expect(within(article).getByText('d')).toBeInTheDocument();
    // …linking to the article's page.
    expect(within(article).getByRole('link', { name: 'Spring launch' })).toHaveAttribute('href', '/story/article/3');
    expect(within(article).queryByText('team')).toBeNull();
    expect(article.innerHTML).not.toMatch(/script|onerror/);
    expect(screen.getByText('Luis Mora')).toBeInTheDocument();
    expect(screen.getByText('+12.50 €')).toBeInTheDocument();
  });

  it('marks a package whose expiry has passed, and tells upcoming promotions from past ones', async () => {
    const soon = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const event = (id: number, title: string, start: string, end: string) => ({ id, title, start_date: start, end_date: end, venue: 'Online', about: 'a', tag: null, image_preview: null, updated_at: at });
    const data: DashboardData = {
      ...dashboard,
      promotions: { events: [event(1, 'Leadership summit', soon, soon), event(2, 'Winter kickoff', at, at)], articles: [] },
    };
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => data) as never} moreLogic={moreOf(async () => data)} renewHref="/packages/payment" />);
    expect(await screen.findByText('Expired Jan 15, 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Renew' })).toHaveAttribute('href', '/packages/payment');
    const upcoming = screen.getByText('Leadership summit').closest('[data-promotion]') as HTMLElement;
    const past = screen.getByText('Winter kickoff').closest('[data-promotion]') as HTMLElement;
    expect(within(upcoming).getByText('Coming up')).toBeInTheDocument();
    expect(within(past).getByText('Past')).toBeInTheDocument();
    // Upcoming events and past ones are listed apart, under their own headings, upcoming first.
    const upcomingList = screen.getByRole('heading', { name: 'Upcoming events' }).parentElement!;
    const pastList = screen.getByRole('heading', { name: 'Past events' }).parentElement!;
    expect(upcomingList).toContainElement(upcoming);
    expect(pastList).toContainElement(past);
    expect(upcomingList.compareDocumentPosition(pastList) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('offers no renewal to a member who may not buy packages, and lists only the last three past events', async () => {
    const event = (id: number, end: string) => ({ id, title: `Event ${id}`, start_date: end, end_date: end, venue: 'Online', about: 'a', tag: null, image_preview: null, updated_at: at });
    const past = [1, 2, 3, 4, 5].map((i) => event(i, `2025-0${i}-10T10:00:00.000Z`));
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => ({ ...dashboard, promotions: { events: past, articles: [] } })) as never} moreLogic={moreOf(async () => ({ ...dashboard, promotions: { events: past, articles: [] } }))} />);
    expect(await screen.findByText('Expired Jan 15, 2026')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Renew' })).toBeNull();
    expect(screen.getAllByText(/^Event \d$/).map((e) => e.textContent)).toEqual(['Event 5', 'Event 4', 'Event 3']);
  });

  it('puts the few figures that matter first, then what to do next, then the detail in tabs a keyboard can open', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const data: DashboardData = {
      ...dashboard,
      summary: {
        ...dashboard.summary,
        kyc_status: 'not_submitted',
        credit_history: [{ month: '2025-12', total: '100.0000' }, { month, total: '42.0000' }],
        debit_history: [{ month: '2025-12', total: '0.0000' }, { month, total: '10.0000' }],
        recruitment_progress: [{ month, required_count: 5, current_count: 2, start_date: `${month}-01`, end_date: `${month}-28`, status: 'in_progress', progress: 40 }],
      },
    };
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => data) as never} moreLogic={moreOf(async () => data)} />);
    const glance = (await screen.findByRole('region', { name: 'At a glance' })) as HTMLElement;
    expect(within(glance.querySelector('[data-figure="Credited this month"]') as HTMLElement).getByText('$42.00')).toBeInTheDocument();
    expect(within(glance.querySelector('[data-figure="New members this month"]') as HTMLElement).getByText('2')).toBeInTheDocument();
    expect(within(glance).getByRole('link', { name: 'Progress to the next rank' })).toHaveAttribute('href', '/home/rank');
    // The groups come in that order, each under its heading.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['At a glance', 'What to do next', 'Your activity', 'News and events']);
    const next = screen.getByRole('region', { name: 'What to do next' });
    expect(within(next).getByRole('link', { name: 'Complete KYC' })).toHaveAttribute('href', '/kyc');
    expect(within(next).getByText('3 more new members this month reach the target.')).toBeInTheDocument();
    // The chart shows first; the transactions wait in their tab, which the arrow keys reach.
    expect(screen.getByRole('tab', { name: 'Money in and out' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('listitem')).toBeNull();
    screen.getByRole('tab', { name: 'Money in and out' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Transactions' })).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('tabpanel', { name: 'Transactions' })).getByText('+$25.00')).toBeInTheDocument();
  });

  it("names recent transactions in the member's language (the wallet's vocabulary)", async () => {
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => dashboard) as never} moreLogic={moreOf(async () => dashboard)} />, { lng: 'es' });
    expect(await screen.findByText('Bono binario')).toBeInTheDocument();
    expect(screen.queryByText('Binary bonus')).toBeNull();
  });

  it('connection error shows the connection view and retry loads the data', async () => {
    let fail = true;
    renderUi(
      <DashboardView
        actor={actorOf(homeDashboardMachine, async () => {
          if (fail) throw new ConnectionError();
          return dashboard;
        }) as never}
        moreLogic={moreOf(never)}
      />,
    );
    expect(await screen.findByText('No connection')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Wallet balance')).toBeInTheDocument();
  });

  it('server error shows the server-error view; empty lists show helpful lines', async () => {
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => { throw new ApiError('server', 500, {}); }) as never} moreLogic={moreOf(never)} />);
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
  });

  it('shows the figures as soon as the summary answers; the referral link and the promotions follow when they arrive', async () => {
    let answer: (data: DashboardData) => void = () => undefined;
    const rest = new Promise<DashboardData>((resolve) => (answer = resolve));
    renderUi(<DashboardView actor={actorOf(homeDashboardMachine, async () => dashboard) as never} moreLogic={moreOf(() => rest)} referralLink="https://upline.test/r/demo" />);
    const balance = await screen.findByText('Wallet balance');
    expect(within(balance.closest('[data-figure]') as HTMLElement).getByText('$1,234.50')).toBeInTheDocument();
    const news = screen.getByRole('region', { name: 'News and events' });
    expect(within(news).getByRole('status', { name: 'Loading your figures…' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Referral link' })).toBeNull();
    answer(dashboard);
    expect(await within(news).findByText('Spring launch')).toBeInTheDocument();
    expect(within(news).queryByRole('status')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Referral link' })).toHaveValue('https://upline.test/r/demo');
  });

  it('keeps the figures when the promotions fail, and their retry loads them', async () => {
    let fail = true;
    renderUi(
      <DashboardView
        actor={actorOf(homeDashboardMachine, async () => dashboard) as never}
        moreLogic={moreOf(async () => {
          if (fail) throw new ConnectionError();
          return dashboard;
        })}
      />,
    );
    const news = await screen.findByRole('region', { name: 'News and events' });
    expect(await within(news).findByText('No connection')).toBeInTheDocument();
    expect(screen.getByText('Wallet balance')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(news).getByRole('button', { name: 'Retry' }));
    expect(await within(news).findByText('Spring launch')).toBeInTheDocument();
  });
});

describe('binary and rank tabs', () => {
  it('binary shows leg volumes and counts', async () => {
    const b: BinarySummary = {
      total_bonus: '80.0000', position: 'L', total_left: '1200.0000', total_right: '900.0000', carry_left: '300.0000', carry_right: '0.0000',
      left_downline_count: 12, right_downline_count: 9, default_leg: 'R', placement_first_name: 'Ana', placement_last_name: 'Ruiz', sponsor_first_name: null, sponsor_last_name: null,
    };
    renderUi(<BinaryView actor={actorOf(homeBinaryMachine, async () => b) as never} />);
    expect(await screen.findByText('$80.00')).toBeInTheDocument();
    expect(screen.getByText('1,200.00')).toBeInTheDocument();
    expect(screen.getByText('Ana Ruiz')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
  });

  it('rank shows progress toward higher ranks and the top-rank empty state', async () => {
    const r: Ranks = {
      plan: 'unilevel',
      criteria: { referral_count: true, pv: true, tv: false },
      criteria_keys: ['referral_count', 'pv', 'group_volume'],
      current_rank: null,
      rank_achievements: [],
      higher_ranks: [
        {
          id: 2, name: 'Senior Leader', icon: null, bonus: '100.0000', referral_count: 4, pv: '200.0000', tv: '0.0000',
          requirements: [{ key: 'referral_count', value: '4' }, { key: 'pv', value: '200' }, { key: 'group_volume', value: '2500' }],
        },
      ],
      criteria_achieved: {
        referral_count: 1, pv: '150.0000', tv: '0.0000',
        figures: [{ key: 'referral_count', value: '1.0000' }, { key: 'pv', value: '150.0000' }, { key: 'group_volume', value: '3000.0000' }],
      },
    };
    const { unmount } = renderUi(<RankView actor={actorOf(homeRankMachine, async () => r) as never} />);
    expect(await screen.findByRole('progressbar', { name: 'Active personal recruits toward Senior Leader: 25%' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Personal volume (PV) toward Senior Leader: 75%' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Group volume toward Senior Leader: 100%' })).toBeInTheDocument();
    // The member's own figures, a count as a whole number and volumes as volumes; no criterion of another plan.
    const figures = within(screen.getByTestId('rank-figures'));
    expect(figures.getByText('Active personal recruits').closest('[data-figure]')).toHaveTextContent('1');
    expect(figures.getByText('Group volume').closest('[data-figure]')).toHaveTextContent('3,000.00');
    expect(screen.queryByText(/leg volume/)).toBeNull();
    unmount();
    const matrix: Ranks = {
      ...r,
      plan: 'matrix',
      criteria_keys: ['levels_filled', 'places_filled', 'pv'],
      higher_ranks: [{ ...r.higher_ranks[0], name: 'Director', requirements: [{ key: 'levels_filled', value: '2' }, { key: 'places_filled', value: '30' }] }],
      criteria_achieved: { ...r.criteria_achieved, figures: [{ key: 'levels_filled', value: '1.0000' }, { key: 'places_filled', value: '12.0000' }, { key: 'pv', value: '150.0000' }] },
    };
    const second = renderUi(<RankView actor={actorOf(homeRankMachine, async () => matrix) as never} />);
    expect(await screen.findByRole('progressbar', { name: 'Matrix levels filled toward Director: 50%' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Matrix places filled toward Director: 40%' })).toBeInTheDocument();
    expect(screen.getByText('12 / 30')).toBeInTheDocument();
    second.unmount();
    renderUi(<RankView actor={actorOf(homeRankMachine, async () => ({ ...r, higher_ranks: [] })) as never} />);
    expect(await screen.findByText('You are at the top')).toBeInTheDocument();
  });
});

describe('sanitizeHtml', () => {
  it('keeps allowed markup, drops scripts, handlers and javascript: links', () => {
    const out = sanitizeHtml('<p onclick="x()">Hi <a href="javascript:alert(1)">bad</a> <a href="https://ok.test">ok</a></p><iframe src="x"></iframe>');
    expect(out).toBe('<p>Hi <a>bad</a> <a href="https://ok.test" rel="noopener noreferrer nofollow" target="_blank">ok</a></p>');
  });

  it('keeps article tables and figures with their allowed attributes', () => {
    const out = sanitizeHtml('<table style="x"><thead><tr><th scope="col" onclick="x()">Rank</th></tr></thead><tbody><tr><td colspan="2">Bronze</td></tr></tbody></table><figure><img src="/images/a.svg" alt="A"><figcaption>Cap</figcaption></figure>');
    expect(out).toBe('<table><thead><tr><th scope="col">Rank</th></tr></thead><tbody><tr><td colspan="2">Bronze</td></tr></tbody></table><figure><img src="/images/a.svg" alt="A"><figcaption>Cap</figcaption></figure>');
  });
});

describe('absoluteUrl', () => {
  it('puts a server path on the site origin and leaves full links alone', () => {
    expect(absoluteUrl('/signup?referral=demo', 'https://office.example')).toBe('https://office.example/signup?referral=demo');
    expect(absoluteUrl('https://upline.test/r/demo', 'https://office.example')).toBe('https://upline.test/r/demo');
  });
});
