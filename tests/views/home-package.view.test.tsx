import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { homePackageMachine } from '../../src/machines/home.machine';
import type { PackageData, PackageOption } from '../../src/schemas/home.schema';
import { PackageView } from '../../src/views/home/package.view';
import { renderUi } from '../support/render-ui';

const option = (o: Partial<PackageOption> & Pick<PackageOption, 'id' | 'name' | 'price'>): PackageOption => ({
  sku: `P${o.id}`, sort_order: o.id, bv: '50.0000', expiry: 365, image: null, description: null, max_levels: null, direct_bonus: '5.0000', roi_bonus: '0.0000',
  price_difference: '0.0000', pv_difference: '0.0000', is_current: false, can_upgrade: false, ...o,
});

const data: PackageData = {
  package_status: 'active', direct_bonus: true, roi_bonus: false, direct_bonus_rate: '8.0000', roi_bonus_rate: '0.0000', unilevel_bonus: false,
  upgrade_status: true, autoship_status: false, price_difference: '250.0000', pv_difference: '250.0000', current_package_id: 2,
  current_package_expiry: '2026-12-31T12:00:00.000Z',
  packages: [
    option({ id: 1, name: 'Starter', price: '100.0000', price_difference: '-150.0000' }),
    option({ id: 2, name: 'Business', price: '250.0000', is_current: true, direct_bonus: '8.0000' }),
    option({ id: 3, name: 'Elite', price: '500.0000', price_difference: '250.0000', pv_difference: '250.0000', can_upgrade: true }),
  ],
  plan: { compensation_plan: 'binary', matrix_width: null, matrix_depth: null, level_percents: [] },
};

const withLoad = (homePackageMachine as unknown as { provide: (i: unknown) => typeof homePackageMachine }).provide;
const actorOf = (load: () => Promise<PackageData>) => createActor(withLoad.call(homePackageMachine, { actors: { load: fromPromise(load) } }) as AnyActorLogic).start();
const figure = (label: string) => within(document.querySelector(`[data-figure="${label}"]`) as HTMLElement);

describe('package tab', () => {
  it('shows a labelled skeleton while loading', () => {
    renderUi(<PackageView actor={actorOf(() => new Promise<never>(() => {})) as never} />);
    expect(screen.getByRole('status', { name: 'Loading your figures…' })).toBeInTheDocument();
  });

  it('shows the current package, expiry, upgrade and autoship status, and every package with its differences', async () => {
    renderUi(<PackageView actor={actorOf(async () => data) as never} />);
    await screen.findByText('Current package');
    expect(figure('Current package').getByText('Business')).toBeInTheDocument();
    expect(figure('Current package').getByText('Active')).toBeInTheDocument();
    expect(figure('Expiry').getByText('Dec 31, 2026')).toBeInTheDocument();
    expect(figure('Upgrade').getByText('Available')).toBeInTheDocument();
    expect(figure('Autoship').getByText('Not available')).toBeInTheDocument();
    expect(figure('Direct bonus').getByText('8.00 %')).toBeInTheDocument();
    expect(figure('Price to the next package').getByText('$250.00')).toBeInTheDocument();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Starter', 'BusinessCurrent', 'EliteUpgrade possible']);
    expect(within(rows[0]).getByText('$100.00')).toBeInTheDocument();
    expect(within(rows[0]).getByText('-$150.00')).toBeInTheDocument();
    expect(within(rows[2]).getByText('$500.00')).toBeInTheDocument();
    // The ROI column is hidden when the ROI bonus is off.
    expect(screen.queryByRole('columnheader', { name: 'ROI bonus' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Direct bonus' })).toBeInTheDocument();
    // A binary company: no matrix and no level commissions.
    expect(document.querySelector('[data-figure="Matrix"]')).toBeNull();
    expect(screen.queryByText(/commissions/)).toBeNull();
  });

  it("reads the plan's own figures: a matrix's width, depth and level percents; a unilevel's generation percents", async () => {
    const matrix = { compensation_plan: 'matrix', matrix_width: 5, matrix_depth: 3, level_percents: ['10.0000', '8.0000', '6.0000'] } as const;
    const first = renderUi(<PackageView actor={actorOf(async () => ({ ...data, plan: { ...matrix, level_percents: [...matrix.level_percents] } })) as never} />);
    await screen.findByText('Current package');
    expect(figure('Matrix').getByText('5 wide, 3 levels deep')).toBeInTheDocument();
    expect(figure('Level commissions (level 1 first)').getByText('10.00 % · 8.00 % · 6.00 %')).toBeInTheDocument();
    first.unmount();
    renderUi(
      <PackageView actor={actorOf(async () => ({ ...data, plan: { compensation_plan: 'unilevel', matrix_width: null, matrix_depth: null, level_percents: ['10.0000', '5.0000'] } })) as never} />,
    );
    await screen.findByText('Current package');
    expect(figure('Generation commissions (generation 1 first)').getByText('10.00 % · 5.00 %')).toBeInTheDocument();
    expect(document.querySelector('[data-figure="Matrix"]')).toBeNull();
  });

  it('without a package and with nothing on offer it says so', async () => {
    renderUi(
      <PackageView
        actor={actorOf(async () => ({ ...data, package_status: 'none', current_package_id: null, current_package_expiry: null, price_difference: null, pv_difference: null, packages: [] })) as never}
      />,
    );
    expect(await screen.findByText('No packages available')).toBeInTheDocument();
    expect(figure('Current package').getByText('No package yet')).toBeInTheDocument();
    expect(screen.queryByText('Price to the next package')).not.toBeInTheDocument();
  });

  it('a connection error shows the connection view and Retry loads the package data', async () => {
    let fail = true;
    renderUi(
      <PackageView
        actor={actorOf(async () => {
          if (fail) throw new ConnectionError();
          return data;
        }) as never}
      />,
    );
    expect(await screen.findByText('No connection')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Available packages')).toBeInTheDocument();
  });

  it('a server error shows the server-error view and Retry tries again', async () => {
    let calls = 0;
    renderUi(
      <PackageView
        actor={actorOf(async () => {
          calls += 1;
          throw new ApiError('server', 500, {});
        }) as never}
      />,
    );
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Something went wrong');
    expect(calls).toBe(2);
  });
});
