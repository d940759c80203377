import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { GenealogyAnswer } from '../../../src/api/network-answers';
import { genealogyMachine, type RootQuery } from '../../../src/machines/genealogy.machine';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Genealogy } from '../../../src/schemas/network.schema';
import { GenealogyView } from '../../../src/views/network/genealogy.view';
import { renderUi } from '../../support/render-ui';
import { genealogyAnswer, treeNode } from '../../support/network-fixtures';

beforeAll(() => {
  // jsdom has no canvas: painting is skipped, the DOM layer (focus, details, announcements) is what is tested.
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});

// m1 (member) → m2 (L, with 2 children not loaded), right slot empty.
const root = treeNode(1, null, { username: 'demo', first_name: 'Dana', last_name: 'Demo', child_count: 1, downlines_count: 3 });
const left = treeNode(2, 1, {
  username: 'alice',
  first_name: 'Alice',
  last_name: 'Lee',
  slot: 0,
  position: 'L',
  level: 1,
  child_count: 2,
  pv: '150',
  total_left: '900',
  carry_right: '35',
  rank_name: 'Silver',
  package_name: 'Pro',
});
const rootAnswer = genealogyAnswer([root, left], { max_levels: 1 });
const below = genealogyAnswer(
  [left, treeNode(3, 2, { username: 'bob', slot: 0, position: 'L', level: 2 }), treeNode(4, 2, { username: 'carol', slot: 1, position: 'R', level: 2 })],
  { root_affiliate_id: 2, max_levels: 1, parent_username: 'demo' },
);

function setup(
  loadRoot: (q: RootQuery) => Promise<Genealogy> = () => Promise.resolve(rootAnswer),
  loadBranch = (_id: number, _from?: number): Promise<Genealogy> => Promise.resolve(below),
  onSearch?: (username: string) => void,
  onTop?: () => void,
) {
  const actor = createActor(
    genealogyMachine.provide({
      actors: {
        loadRoot: fromPromise<GenealogyAnswer, RootQuery>(({ input }) => loadRoot(input)),
        loadBranch: fromPromise<GenealogyAnswer, { id: number; from?: number }>(({ input }) => loadBranch(input.id, input.from)),
      },
    }),
    { input: {} },
  ).start();
  renderUi(<GenealogyView actor={actor} onSearch={onSearch} onTop={onTop} />);
  return actor;
}

const tree = () => screen.getByRole('application', { name: 'Genealogy tree' });
const announced = () => document.querySelector('[data-focus-description]')!.textContent;

describe('GenealogyView', () => {
  it('shows a loader, then the tree with its toolbar', async () => {
    let resolve!: (g: Genealogy) => void;
    setup(() => new Promise((r) => (resolve = r)));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => resolve(rootAnswer));
    expect(await screen.findByRole('application', { name: 'Genealogy tree' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Up one level' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back to me' })).toBeDisabled();
    expect(screen.getByText('Hover, focus or tap a member to see their details.')).toBeInTheDocument();
  });

  it('connection and server errors offer a retry that loads the tree', async () => {
    let fail: unknown = new ConnectionError();
    setup(() => (fail ? Promise.reject(fail) : Promise.resolve(rootAnswer)));
    expect(await screen.findByText(/connection/i, { selector: 'h2, h3' })).toBeInTheDocument();
    fail = new ApiError('server', 500, {});
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    await waitFor(() => expect(document.querySelector('[data-error-kind="server"]')).not.toBeNull());
    fail = null;
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByRole('application', { name: 'Genealogy tree' })).toBeInTheDocument();
  });

  it('keyboard: focusing the tree focuses the member, arrows move between nodes and describe them', async () => {
    setup();
    await screen.findByRole('application');
    act(() => tree().focus());
    expect(announced()).toMatch(/^demo, Dana Demo, level 0, Active\. 1 direct, 3 in downline\. Expanded\./);
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    expect(announced()).toMatch(/^(alice|Empty)/);
    fireEvent.keyDown(tree(), { key: 'ArrowUp' });
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    // children of demo: alice (L) and the empty right slot
    const first = announced();
    fireEvent.keyDown(tree(), { key: first!.startsWith('alice') ? 'ArrowRight' : 'ArrowLeft' });
    const second = announced();
    expect([first, second].sort().join('|')).toMatch(/Empty Right slot under demo\.\|alice/);
  });

  it('the details panel shows volumes, totals and carries of the focused member; Enter expands it', async () => {
    const branchCalls: number[] = [];
    setup(undefined, (id) => {
      branchCalls.push(id);
      return Promise.resolve(below);
    });
    await screen.findByRole('application');
    act(() => tree().focus());
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    if (!announced()!.startsWith('alice')) fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
    const details = screen.getByRole('region', { name: 'Member details' });
    expect(details).toHaveTextContent('alice');
    expect(details).toHaveTextContent('Alice Lee');
    expect(details).toHaveTextContent('Silver');
    expect(details).toHaveTextContent('Pro');
    expect(details).toHaveTextContent('PV150');
    expect(details).toHaveTextContent('Left total900');
    expect(details).toHaveTextContent('Right carry35');
    expect(announced()).toMatch(/press Enter to expand/);
    fireEvent.keyDown(tree(), { key: 'Enter' });
    await waitFor(() => expect(announced()).toMatch(/Expanded\./));
    expect(branchCalls).toEqual([2]);
  });

  it('on a matrix or unilevel plan the details show no leg totals, carries or leg counts', async () => {
    for (const plan of ['matrix', 'unilevel'] as const) {
      const view = setup(() => Promise.resolve(genealogyAnswer([root, { ...left, position: null }], { max_levels: 1, compensation_plan: plan, max_width: plan === 'matrix' ? 3 : null })));
      await screen.findByRole('application');
      act(() => tree().focus());
      fireEvent.keyDown(tree(), { key: 'ArrowDown' });
      if (!announced()!.startsWith('alice')) fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
      const details = screen.getByRole('region', { name: 'Member details' });
      expect(details).toHaveTextContent('PV150');
      expect(details).toHaveTextContent('Direct2');
      expect(details).not.toHaveTextContent('Left total');
      expect(details).not.toHaveTextContent('Right carry');
      view.stop();
      cleanup();
    }
  });

  it('unilevel: a wide level shows ten recruits and "+ N more"; Enter shows the next ones (loading them), "Fewer" goes back', async () => {
    // demo has 25 recruits; the first answer carries 12 of them (its level was the last loaded).
    const boss = treeNode(1, null, { username: 'demo', first_name: 'Dana', child_count: 25 });
    const recruit = (i: number) => treeNode(100 + i, 1, { username: `rec${i}`, level: 1 });
    const branchCalls: number[] = [];
    setup(
      () => Promise.resolve(genealogyAnswer([boss, ...Array.from({ length: 12 }, (_, i) => recruit(i))], { max_levels: 0, compensation_plan: 'unilevel', max_width: null })),
      (id) => {
        branchCalls.push(id);
        return Promise.resolve(genealogyAnswer([boss, ...Array.from({ length: 25 }, (_, i) => recruit(i))], { max_levels: 1, compensation_plan: 'unilevel', max_width: null }));
      },
    );
    await screen.findByRole('application');
    act(() => tree().focus());
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    for (let i = 0; i < 12; i++) fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    expect(announced()).toBe('15 more recruits of demo: press Enter to show the next ones');
    expect(screen.getByRole('region', { name: 'Member details' })).toHaveTextContent('15 more recruits of demo');
    fireEvent.keyDown(tree(), { key: 'Enter' });
    // Twenty are asked for; 12 were loaded: demo's recruits come from the server.
    await waitFor(() => expect(announced()).toBe('5 more recruits of demo: press Enter to show the next ones'));
    expect(branchCalls).toEqual([1]);
    fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
    expect(announced()).toMatch(/^rec19, /);
    fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    expect(announced()).toBe('Show only the first 10 recruits of demo');
    await userEvent.click(within(screen.getByRole('region', { name: 'Member details' })).getByRole('button', { name: '− Fewer' }));
    expect(announced()).toBe('15 more recruits of demo: press Enter to show the next ones');
    fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
    expect(announced()).toMatch(/^rec9, /);
    expect(branchCalls).toEqual([1]);
  });

  it('unilevel: a level the server cut comes page by page from the place it stopped; every recruit once', async () => {
    // demo has 25 recruits; the server's answers carry at most 8 of them at a time.
    const boss = treeNode(1, null, { username: 'demo', first_name: 'Dana', child_count: 25 });
    const recruit = (i: number) => treeNode(100 + i, 1, { username: `rec${i}`, level: 1, slot: i });
    const pageOf = (from: number) => Array.from({ length: Math.min(8, 25 - from) }, (_, i) => recruit(from + i));
    const calls: Array<[number, number | undefined]> = [];
    setup(
      () =>
        Promise.resolve(
          genealogyAnswer([boss, ...pageOf(0)], { max_levels: 3, compensation_plan: 'unilevel', max_width: null, more_children: [{ id: 1, from: 8 }] }),
        ),
      (id, from) => {
        calls.push([id, from]);
        const rows = pageOf(from ?? 0);
        const next = (from ?? 0) + rows.length;
        return Promise.resolve(
          genealogyAnswer([boss, ...rows], { max_levels: 1, compensation_plan: 'unilevel', max_width: null, more_children: next < 25 ? [{ id: 1, from: next }] : [] }),
        );
      },
    );
    await screen.findByRole('application');
    act(() => tree().focus());
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    for (let i = 0; i < 8; i++) fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    // Eight loaded, 17 more to come (the server's count).
    expect(announced()).toBe('17 more recruits of demo: press Enter to show the next ones');
    fireEvent.keyDown(tree(), { key: 'Enter' });
    // Each "more" brings the next page, from the place the last one stopped: 8, then 16, then 24.
    await waitFor(() => expect(announced()).toBe('9 more recruits of demo: press Enter to show the next ones'));
    expect(calls).toEqual([[1, 8]]);
    fireEvent.keyDown(tree(), { key: 'Enter' });
    await waitFor(() => expect(announced()).toBe('1 more recruits of demo: press Enter to show the next ones'));
    fireEvent.keyDown(tree(), { key: 'Enter' });
    await waitFor(() => expect(calls).toEqual([[1, 8], [1, 16], [1, 24]]));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Member details' })).not.toHaveTextContent('more recruits'));
    // Every recruit once, in place order, and nothing left to load.
    fireEvent.keyDown(tree(), { key: 'ArrowUp' });
    expect(announced()).toMatch(/^demo, /);
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    for (let i = 0; i < 30; i++) fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
    const seen: string[] = [];
    for (let i = 0; i < 25; i++) {
      seen.push(announced().split(',')[0]);
      fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    }
    expect(announced()).toBe('Show only the first 10 recruits of demo');
    expect(calls).toHaveLength(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `rec${i}`));
  });

  it('an empty slot offers "sign up here" with placement and position', async () => {
    setup();
    await screen.findByRole('application');
    act(() => tree().focus());
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    if (!announced()!.startsWith('Empty')) fireEvent.keyDown(tree(), { key: 'ArrowRight' });
    const link = screen.getByRole('link', { name: 'Sign up here' });
    expect(link.getAttribute('href')).toMatch(/\/member\/signup\?placement=demo&position=R$/);
  });

  it('a failed expansion marks that member with a retry; the tree stays', async () => {
    let fail = true;
    setup(undefined, () => (fail ? Promise.reject(new ConnectionError()) : Promise.resolve(below)));
    await screen.findByRole('application');
    act(() => tree().focus());
    fireEvent.keyDown(tree(), { key: 'ArrowDown' });
    if (!announced()!.startsWith('alice')) fireEvent.keyDown(tree(), { key: 'ArrowLeft' });
    fireEvent.keyDown(tree(), { key: 'Enter' });
    expect(await screen.findByText('The members below alice could not be loaded.')).toBeInTheDocument();
    expect(announced()).toMatch(/Loading failed/);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry loading' }));
    await waitFor(() => expect(announced()).toMatch(/Expanded\./));
    expect(screen.queryByText('The members below alice could not be loaded.')).not.toBeInTheDocument();
  });

  it('searching a username outside the network says so; a downline username is shown', async () => {
    setup((q) =>
      Promise.resolve(
        q.username === 'alice'
          ? genealogyAnswer([left], { root_affiliate_id: 2, search_valid: true, parent_username: 'demo', max_levels: 1 })
          : rootAnswer,
      ),
    );
    await screen.findByRole('application');
    await userEvent.type(screen.getByLabelText('Search a username'), 'mallory{Enter}');
    expect(await screen.findByText('“mallory” is not in your network.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Search a username'));
    await userEvent.type(screen.getByLabelText('Search a username'), 'alice{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Up one level' })).toBeEnabled());
    act(() => tree().blur());
    act(() => tree().focus());
    expect(announced()).toMatch(/^alice/);
  });

  it('a search is handed to the page (trimmed) to write into the URL, so a reload keeps it; an empty one is not', async () => {
    const searched: string[] = [];
    const seen: RootQuery[] = [];
    setup(
      (q) => {
        seen.push(q);
        return Promise.resolve(rootAnswer);
      },
      undefined,
      (u) => searched.push(u),
    );
    await screen.findByRole('application');
    await userEvent.type(screen.getByLabelText('Search a username'), '  alice {Enter}');
    await waitFor(() => expect(seen.some((q) => q.username === 'alice')).toBe(true));
    await userEvent.clear(screen.getByLabelText('Search a username'));
    await userEvent.type(screen.getByLabelText('Search a username'), '   {Enter}');
    expect(searched).toEqual(['alice']);
  });

  it('the box shows the search the tree is on: one the URL brings (Back) replaces what was typed; "Back to me" empties it and tells the page', async () => {
    let tops = 0;
    const actor = setup(
      (q) => Promise.resolve(q.username ? genealogyAnswer([left], { root_affiliate_id: 2, search_valid: true, parent_username: 'demo', max_levels: 1 }) : rootAnswer),
      undefined,
      undefined,
      () => (tops += 1),
    );
    await screen.findByRole('application');
    const box = screen.getByLabelText('Search a username');
    await userEvent.type(box, 'mallory');
    // Back to an entry whose URL says ?username=alice: the page sends the search, the box follows it.
    act(() => actor.send({ type: 'tree.search', username: 'alice' }));
    await waitFor(() => expect(box).toHaveValue('alice'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back to me' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Back to me' }));
    expect(tops).toBe(1);
    await waitFor(() => expect(box).toHaveValue(''));
    expect(actor.getSnapshot().context.query).toBe('');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Back to me' })).toBeDisabled());
  });
});
