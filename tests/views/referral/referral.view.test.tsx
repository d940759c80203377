import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  referralEarnersMachine,
  referralJoiningsMachine,
  referralRecruitersMachine,
  referralSummaryMachine,
} from '../../../src/machines/referral-pages.machine';
import { ConnectionError, ApiError } from '../../../src/api/errors';
import type { Leaderboard, ReferralSummary } from '../../../src/schemas/referral.schema';
import { JoiningsView, LeaderboardView, ReferralSummaryView } from '../../../src/views/referral/referral.view';
import { absoluteUrl as absoluteLink } from '../../../src/lib/links';
import { canSeeNetwork, canSeeReferral } from '../../../src/lib/menu';
import { renderUi } from '../../support/render-ui';

const summary: ReferralSummary = {
  referral_link: '/signup?referral=demo',
  direct_referrals: 12,
  joined_this_month: 3,
  team_size: 140,
  referral_earnings: '1520.5',
  recent_joinings: [{ id: 7, first_name: 'Nina', last_name: 'Ray', joined_date: '2026-02-03T10:00:00.000Z', avatar: null }],
};

function load<M extends typeof referralSummaryMachine | typeof referralEarnersMachine>(machine: M, loader: () => Promise<unknown>) {
  const provided = (machine as typeof referralSummaryMachine).provide({ actors: { load: fromPromise(loader) } });
  return createActor(provided, { input: {} }).start() as never;
}

describe('referral summary', () => {
  it('shows the link with copy and share links, counts, earnings and recent joinings', async () => {
    const actor = load(referralSummaryMachine, () => Promise.resolve(summary));
    renderUi(<ReferralSummaryView actor={actor} />);
    const url = `${window.location.origin}/signup?referral=demo`;
    expect(await screen.findByLabelText('Your referral link')).toHaveValue(url);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    const share = screen.getByRole('group', { name: 'Share' });
    expect(within(share).getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toContain(encodeURIComponent(url));
    expect(within(share).getByRole('link', { name: 'Share by e-mail' }).getAttribute('href')).toMatch(/^mailto:/);
    expect(screen.getByText('Direct referrals').nextSibling).toHaveTextContent('12');
    expect(screen.getByText('Team size').nextSibling).toHaveTextContent('140');
    expect(screen.getByText('Referral earnings').nextSibling).toHaveTextContent('$1,520.50');
    expect(screen.getByText('Nina Ray')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See all joinings' })).toHaveAttribute('href', '/member/referral/joinings');
  });

  it('connection error offers a retry', async () => {
    let fail = true;
    const actor = load(referralSummaryMachine, () => (fail ? Promise.reject(new ConnectionError()) : Promise.resolve(summary)));
    renderUi(<ReferralSummaryView actor={actor} />);
    await waitFor(() => expect(document.querySelector('[data-error-kind="connection"]')).not.toBeNull());
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByLabelText('Your referral link')).toBeInTheDocument();
  });

  it('builds absolute links from the server path', () => {
    expect(absoluteLink('/signup?referral=a', 'https://x.example')).toBe('https://x.example/signup?referral=a');
    expect(absoluteLink('https://y.example/s', 'https://x.example')).toBe('https://y.example/s');
  });
});

describe('leaderboards', () => {
  const board: Leaderboard = {
    items: [
      { rank: 1, id: 5, username: 'ace', first_name: 'Ace', last_name: null, avatar: null, referrals: 9, earnings: '300' },
      { rank: 2, id: 6, username: 'bee', first_name: 'Bee', last_name: 'B', avatar: null, referrals: 4, earnings: '120.5' },
    ],
  };
  it('recruiters show referral counts, earners show money', async () => {
    const a = load(referralRecruitersMachine, () => Promise.resolve(board));
    const { unmount } = renderUi(<LeaderboardView actor={a} metric="recruiter" />);
    const rows = within(await screen.findByRole('table', { name: 'Top recruiters' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/1ace.*9/);
    unmount();
    const b = load(referralEarnersMachine, () => Promise.resolve(board));
    renderUi(<LeaderboardView actor={b} metric="earner" />);
    const erows = within(await screen.findByRole('table', { name: 'Top earners' })).getAllByRole('row');
    expect(erows[2]).toHaveTextContent('$120.50');
  });
  it('an empty board and a server error', async () => {
    const a = load(referralEarnersMachine, () => Promise.resolve({ items: [] }));
    const { unmount } = renderUi(<LeaderboardView actor={a} metric="earner" />);
    expect(await screen.findByText('No one to rank yet.')).toBeInTheDocument();
    unmount();
    const b = load(referralEarnersMachine, () => Promise.reject(new ApiError('server', 500, {})));
    renderUi(<LeaderboardView actor={b} metric="earner" />);
    await waitFor(() => expect(document.querySelector('[data-error-kind="server"]')).not.toBeNull());
  });
});

describe('joinings', () => {
  it('pages through joinings with the cursor', async () => {
    const cursors: Array<string | undefined> = [];
    const actor = createActor(
      referralJoiningsMachine.provide({
        actors: {
          fetchPage: fromPromise<unknown, unknown>(async ({ input: raw }) => {
            const input = raw as { next: { cursor?: string } | null };
            cursors.push(input.next?.cursor);
            return input.next
              ? { items: [{ id: 2, first_name: 'Second', last_name: null, joined_date: '2026-01-01T00:00:00.000Z', avatar: null }], next: null }
              : { items: [{ id: 1, first_name: 'First', last_name: null, joined_date: '2026-01-02T00:00:00.000Z', avatar: null }], next: { cursor: 'abc' } };
          }),
        },
      }),
      { input: { filters: {} } },
    ).start();
    renderUi(<JoiningsView actor={actor} />);
    expect(await screen.findByText('First')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.getByText('That is everyone.')).toBeInTheDocument();
    expect(cursors).toEqual([undefined, 'abc']);
  });
});

describe('who sees network and referral (spec §6)', () => {
  it('network: affiliates that are not merchants; referral: anyone but merchants', () => {
    expect(canSeeNetwork({ role_id: 3, account_type: 'personal' })).toBe(true);
    expect(canSeeNetwork({ role_id: 3, account_type: 'merchant' })).toBe(false);
    expect(canSeeNetwork({ role_id: 2, account_type: 'personal' })).toBe(false);
    expect(canSeeNetwork(null)).toBe(false);
    expect(canSeeReferral({ account_type: 'personal' })).toBe(true);
    expect(canSeeReferral({ account_type: 'merchant' })).toBe(false);
  });
});
