import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { tabularTreeMachine, type RowRequest } from '../../../src/machines/tabular-tree.machine';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { TableViewAnswer } from '../../../src/api/network-answers';
import type { NestedTableNode, TableView, TableViewSingle } from '../../../src/schemas/network.schema';
import { TabularView } from '../../../src/views/network/tabular.view';
import { renderUi } from '../../support/render-ui';
import { tableNode } from '../../support/network-fixtures';

// jsdom lays nothing out: give elements a size so the virtualiser has a window to fill.
const sizes = {
  clientHeight: Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight'),
  clientWidth: Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth'),
};
beforeAll(() => {
  Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => 520 });
  Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => 800 });
});
afterAll(() => {
  if (sizes.clientHeight) Object.defineProperty(Element.prototype, 'clientHeight', sizes.clientHeight);
  if (sizes.clientWidth) Object.defineProperty(Element.prototype, 'clientWidth', sizes.clientWidth);
});

const n = (id: number, username: string, level: number, child_count: number, children: NestedTableNode[] = []): NestedTableNode => ({
  ...tableNode(id, null, { username, level, child_count, total_earnings: '1250.5', downlines_count: child_count * 3 }),
  children,
});
const view: TableView = {
  genealogy: n(1, 'demo', 0, 2, [n(2, 'alice', 1, 1, [n(4, 'dave', 2, 1)]), n(3, 'bob', 1, 0)]),
  search_valid: false,
  max_levels: 3,
  levels_loaded: 2,
};
const manyChildren = (count: number): TableViewSingle => ({
  genealogy: Array.from({ length: count }, (_, i) => tableNode(100 + i, 4, { username: `kid${i}`, level: 3 })),
  search_valid: false,
  max_levels: 1,
  level: 1,
  root_affiliate_id: 4,
  next_page_url: null,
});

function setup(load: () => Promise<TableView> = () => Promise.resolve(view), loadRow = (_r: RowRequest) => Promise.resolve(manyChildren(3))) {
  const actor = createActor(
    tabularTreeMachine.provide({
      actors: { loadTable: fromPromise<TableView | TableViewAnswer>(load), loadRow: fromPromise(({ input }: { input: RowRequest }) => loadRow(input)) },
    }),
  ).start();
  renderUi(<TabularView actor={actor} height={520} />);
  return actor;
}

const rowNames = () => screen.queryAllByRole('treeitem').map((r) => r.getAttribute('data-row') ?? r.textContent);

describe('TabularView', () => {
  it('shows a loader, then the member and the first level with money and counts', async () => {
    let resolve!: (v: TableView) => void;
    setup(() => new Promise((r) => (resolve = r)));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => resolve(view));
    await screen.findByRole('tree', { name: 'Network as a list' });
    expect(rowNames()).toEqual(['demo', 'alice', 'bob']);
    const alice = screen.getAllByRole('treeitem')[1];
    expect(alice).toHaveAttribute('aria-level', '2');
    expect(alice).toHaveAttribute('aria-expanded', 'false');
    expect(alice).toHaveTextContent('$1,250.50');
    expect(screen.getAllByRole('treeitem')[2]).not.toHaveAttribute('aria-expanded');
  });

  it('expands a loaded level at once and loads an unloaded one, with a loading row meanwhile', async () => {
    let release!: () => void;
    setup(undefined, () => new Promise((r) => (release = () => r(manyChildren(3)))));
    await screen.findByRole('tree');
    await userEvent.click(screen.getByRole('button', { name: 'Expand alice' }));
    expect(rowNames()).toEqual(['demo', 'alice', 'dave', 'bob']);
    await userEvent.click(screen.getByRole('button', { name: 'Expand dave' }));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    act(() => release());
    await waitFor(() => expect(rowNames()).toEqual(['demo', 'alice', 'dave', 'kid0', 'kid1', 'kid2', 'bob']));
    expect(screen.getAllByRole('treeitem')[3]).toHaveAttribute('aria-level', '4');
    await userEvent.click(screen.getByRole('button', { name: 'Fold alice' }));
    expect(rowNames()).toEqual(['demo', 'alice', 'bob']);
  });

  it('only mounts the rows in the window when thousands are loaded', async () => {
    setup(undefined, () => Promise.resolve(manyChildren(5000)));
    await screen.findByRole('tree');
    await userEvent.click(screen.getByRole('button', { name: 'Expand alice' }));
    await userEvent.click(screen.getByRole('button', { name: 'Expand dave' }));
    await waitFor(() => expect(screen.getByText('5004 rows shown')).toBeInTheDocument());
    expect(screen.getAllByRole('treeitem').length).toBeLessThan(40);
  });

  it('a row that fails to load shows an error with retry', async () => {
    let fail = true;
    setup(undefined, () => (fail ? Promise.reject(new ConnectionError()) : Promise.resolve(manyChildren(1))));
    await screen.findByRole('tree');
    await userEvent.click(screen.getByRole('button', { name: 'Expand alice' }));
    await userEvent.click(screen.getByRole('button', { name: 'Expand dave' }));
    expect(await screen.findByText('Could not load the members below.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rowNames()).toContain('kid0'));
  });

  it('first load errors offer a retry', async () => {
    let fail: unknown = new ApiError('server', 500, {});
    setup(() => (fail ? Promise.reject(fail) : Promise.resolve(view)));
    await waitFor(() => expect(document.querySelector('[data-error-kind="server"]')).not.toBeNull());
    fail = null;
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    const tree = await screen.findByRole('tree');
    expect(within(tree).getAllByRole('treeitem')).toHaveLength(3);
  });
});

describe('TabularView window', () => {
  it('shows the rows under the scroll position, a fixed height each', async () => {
    const wide: TableView = {
      ...view,
      genealogy: n(1, 'demo', 0, 3000, Array.from({ length: 3000 }, (_, i) => n(10 + i, `kid${i}`, 1, 0))),
    };
    setup(() => Promise.resolve(wide));
    const tree = await screen.findByRole('tree');
    expect(rowNames()[0]).toBe('demo');
    const scroller = document.querySelector('[data-tabular-scroll]') as HTMLElement;
    act(() => {
      scroller.scrollTop = 52 * 1000;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const names = rowNames();
    expect(names).toContain('kid999');
    expect(names).not.toContain('demo');
    expect(names.length).toBeLessThan(40);
    const kid = within(tree).getAllByRole('treeitem').find((r) => r.getAttribute('data-row') === 'kid999')!;
    expect(kid.parentElement!.style.transform).toBe(`translateY(${52 * 1000}px)`);
    expect(screen.getByText('3001 rows shown')).toBeInTheDocument();
  });
});
