import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { Cart, CheckoutResult, Product } from '../../src/schemas/shop.schema';
import type { Address } from '../../src/schemas/account.schema';
import { columnHeaders, renderUi, setViewportWidth, tableRows } from '../support/render-ui';

const api = vi.hoisted(() => ({
  products: vi.fn(),
  categories: vi.fn(),
  product: vi.fn(),
  cart: vi.fn(),
  addToCart: vi.fn(),
  setQuantity: vi.fn(),
  remove: vi.fn(),
  restore: vi.fn(),
  addresses: vi.fn(),
  checkout: vi.fn(),
  cardPayment: vi.fn(),
  cardStatus: vi.fn(),
}));
const loginFields = vi.hoisted(() => vi.fn());
vi.mock('../../src/api/shop', () => ({ shopApi: api }));
vi.mock('../../src/api/auth', () => ({ authApi: { loginFields } }));

const { cartAddMachine, cartMachine } = await import('../../src/machines/cart.machine');
const { checkoutMachine } = await import('../../src/machines/checkout.machine');
const { productsListMachine, productDetailMachine, cardPaymentResultMachine } = await import('../../src/machines/shop-catalogue.machine');
const { ProductsView, ProductDetailView } = await import('../../src/views/shop/products.view');
const { CartView } = await import('../../src/views/shop/cart.view');
const { CheckoutView } = await import('../../src/views/shop/checkout.view');
const { CardPaymentView } = await import('../../src/views/shop/card-payment.view');

const MAT: Product = {
  id: 12, sku: 'FIT-MAT', name: 'Non-slip yoga mat', description: '6 mm mat', category: { id: 4, name: 'Fitness' }, price: '35.0000', bv: '20.0000', pv: '20.0000',
  stock: 30, stock_status: 'in_stock', images: ['/images/products/mat.svg'], created_at: '2026-08-01T09:00:00.000Z',
};
const TEA: Product = { ...MAT, id: 4, sku: 'NUT-TEA-20', name: 'Green tea detox', stock: 0, stock_status: 'out_of_stock', category: null };
const line = (over: Partial<Cart['items'][number]> = {}) => ({ id: 12, sku: 'FIT-MAT', name: 'Non-slip yoga mat', image: null, price: '35', bv: '20', quantity: 1, stock: 30, status: true, line_total: '35', ...over });
const CART: Cart = { items: [line()], totals: { quantity: 1, amount: '35', bv: '20', available: true }, removed: [] };
const HOME = { id: 3, first_name: 'Dana', last_name: 'Demo', company: '', address_1: '1200 Lake Shore Drive', address_2: '', city: 'Chicago', postcode: '60610', email: '', phone: '', country_id: 1, zone_id: null, country_name: 'United States', zone_name: '', created_at: '2026-09-01T10:00:00.000Z' } as Address;
const PAID: CheckoutResult = { order_id: 99, invoice_no: 'INV-2026-000099', total: '35', outcome: 'paid', url: null };

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  loginFields.mockReset().mockResolvedValue({ countries: [{ id: 1, name: 'United States', iso_code_2: 'US', iso_code_3: 'USA', phone_code: '+1' }] });
  api.categories.mockResolvedValue([{ id: 4, name: 'Fitness' }]);
});

describe('products page', () => {
  function show(filters = {}) {
    const actor = createActor(productsListMachine, { input: { filters } }).start();
    const notify = vi.fn();
    const cartAdd = createActor(cartAddMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
    const onFilters = vi.fn();
    renderUi(<ProductsView actor={actor} cartAdd={cartAdd} filters={filters} onFilters={onFilters} />);
    return { actor, cartAdd, notify, onFilters };
  }

  it('shows the products with price, volumes and stock; a sold-out one cannot be added; adding tells the member', async () => {
    api.products.mockResolvedValue({ items: [MAT, TEA], next_page_url: null });
    api.addToCart.mockResolvedValue(CART);
    const { notify } = show();
    const card = await screen.findByText('Non-slip yoga mat');
    expect(screen.getAllByText('BV 20.00 · PV 20.00').length).toBe(2);
    expect(within(card.closest('[data-product]') as HTMLElement).getByText('In stock')).toBeTruthy();
    const tea = screen.getByText('Green tea detox').closest('[data-product]') as HTMLElement;
    expect((within(tea).getByRole('button', { name: 'Sold out: Green tea detox' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart: Non-slip yoga mat' }));
    await vi.waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'store:cart.added' }));
    expect(api.addToCart).toHaveBeenCalledWith(12, 1);
    // The category filter shows because the company shows categories.
    expect(screen.getByRole('combobox', { name: 'Category' })).toBeTruthy();
  });

  it('an add refused for stock is a toast with the reason', async () => {
    api.products.mockResolvedValue({ items: [MAT], next_page_url: null });
    api.addToCart.mockRejectedValue(new ApiError('badRequest', 409, { error_code: 'out_of_stock', errors: { product_id: ['store:cart.errors.outOfStock'] } }));
    const { notify } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Add to cart: Non-slip yoga mat' }));
    await vi.waitFor(() => expect(notify).toHaveBeenCalled());
    expect(notify.mock.calls).toEqual([[{ kind: 'error', key: 'store:cart.errors.outOfStock' }]]);
  });

  it('a search without results offers to clear it; a connection error offers retry', async () => {
    api.products.mockResolvedValueOnce({ items: [], next_page_url: null });
    const { onFilters } = show({ search: 'zzz' });
    await screen.findByText('No products match');
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear search' }).at(-1)!);
    expect(onFilters).toHaveBeenCalledWith({});
  });

  it('connection and server errors of the list offer retry', async () => {
    api.products.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ items: [MAT], next_page_url: null });
    show();
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    await screen.findByText('Non-slip yoga mat');
  });
});

describe('product detail', () => {
  it('shows the product; unknown → not found; a server error retries', async () => {
    api.product.mockResolvedValueOnce(MAT);
    const cartAdd = createActor(cartAddMachine).start();
    const actor = createActor(productDetailMachine, { input: { params: 12 } }).start();
    const { unmount } = renderUi(<ProductDetailView actor={actor} cartAdd={cartAdd} />);
    await screen.findByRole('heading', { name: 'Non-slip yoga mat' });
    expect(screen.getByText('Code FIT-MAT')).toBeTruthy();
    unmount();

    api.product.mockRejectedValueOnce(new ApiError('notFound', 404, { error_code: 'not_found' }));
    const missing = createActor(productDetailMachine, { input: { params: 5 } }).start();
    const second = renderUi(<ProductDetailView actor={missing} cartAdd={cartAdd} />);
    await screen.findByText('Product not found');
    second.unmount();

    api.product.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(MAT);
    const broken = createActor(productDetailMachine, { input: { params: 12 } }).start();
    renderUi(<ProductDetailView actor={broken} cartAdd={cartAdd} />);
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    await screen.findByRole('heading', { name: 'Non-slip yoga mat' });
  });
});

describe('cart page', () => {
  function show() {
    const notify = vi.fn();
    const forceLogout = vi.fn();
    const actor = createActor(cartMachine.provide({ actions: { notify: (_, p) => notify(p), forceLogout } })).start();
    renderUi(<CartView actor={actor} />);
    return { actor, notify, forceLogout };
  }

  it('shows lines and totals, removes with an instant restore', async () => {
    api.cart.mockResolvedValue(CART);
    const removed: Cart = { items: [], totals: { quantity: 0, amount: '0', bv: '0', available: true }, removed: [line()] };
    api.remove.mockResolvedValue(removed);
    api.restore.mockResolvedValue(CART);
    show();
    await screen.findByText('1 item');
    expect(screen.getByText('Available')).toBeTruthy();
    // On a desktop the lines are a table: its column headers, the price and the line total right-aligned.
    const table = screen.getByRole('table', { name: 'Products in your cart' });
    expect(columnHeaders(table)).toEqual(['Product', 'Price', 'Availability', 'Quantity', 'Line total', 'Action']);
    const [row] = tableRows(table);
    const cells = within(row).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('$35.00');
    expect(cells[1]).toHaveStyle({ textAlign: 'right' });
    expect(cells[4]).toHaveStyle({ textAlign: 'right' });
    expect(within(cells[0]).getByRole('link', { name: 'Non-slip yoga mat' })).toHaveAttribute('href', '/shopping/products/12');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Non-slip yoga mat' }));
    await screen.findByText('Non-slip yoga mat was removed.');
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await screen.findByText('1 item');
    expect(api.restore).toHaveBeenCalledWith(12);
  });

  it('on a phone each line is a card with its quantity field', async () => {
    setViewportWidth(360);
    try {
      api.cart.mockResolvedValue(CART);
      show();
      await screen.findByText('1 item');
      expect(screen.queryByRole('table')).toBeNull();
      const card = screen.getByRole('listitem');
      expect(within(card).getByRole('combobox', { name: 'Quantity' })).toBeTruthy();
      expect(card).toHaveTextContent('$35.00');
    } finally {
      setViewportWidth(1024);
    }
  });

  it('an unavailable line blocks checkout; a refused change shows its reason', async () => {
    api.cart.mockResolvedValue({ items: [line({ quantity: 3, stock: 2, status: false })], totals: { quantity: 3, amount: '105', bv: '60', available: false }, removed: [] });
    api.setQuantity.mockRejectedValue(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { quantity: ['store:cart.errors.tooMany'] } }));
    show();
    await screen.findByText('Only 2 left');
    expect((screen.getByRole('button', { name: 'Check out' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: 'Quantity of Non-slip yoga mat' }), { target: { value: '2' } });
    await screen.findByText('You cannot add more of this product.');
  });

  it('empty, connection error (retry), server error (retry), and 401 ends the session', async () => {
    api.cart.mockResolvedValueOnce({ items: [], totals: { quantity: 0, amount: '0', bv: '0', available: true }, removed: [] });
    const first = show();
    await screen.findByText('Your cart is empty');
    first.actor.stop();

    api.cart.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(CART);
    const { actor } = show();
    fireEvent.click((await screen.findAllByRole('button', { name: /retry|try again/i })).at(-1)!);
    await waitFor(actor, (s) => s.matches('serverError'));
    fireEvent.click((await screen.findAllByRole('button', { name: /retry|try again/i })).at(-1)!);
    await waitFor(actor, (s) => s.matches('ready'));

    api.cart.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const ended = show();
    await waitFor(ended.actor, (s) => s.matches('forceLogout'));
    expect(ended.forceLogout).toHaveBeenCalled();
  });
});

describe('checkout page', () => {
  function show() {
    const redirect = vi.fn();
    const notify = vi.fn();
    const actor = createActor(checkoutMachine.provide({ actions: { redirect: (_, p) => redirect(p), notify: (_, p) => notify(p) } }), { input: {} }).start();
    renderUi(<CheckoutView actor={actor} />);
    return { actor, redirect, notify };
  }
  const ready = () => {
    api.cart.mockResolvedValue(CART);
    api.addresses.mockResolvedValue({ items: [HOME], next_page_url: null });
  };

  it('address → wallet → wrong password → paid; the retry after a connection error reuses the idempotency key', async () => {
    ready();
    api.checkout
      .mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } }))
      .mockRejectedValueOnce(new ConnectionError())
      .mockResolvedValueOnce(PAID);
    const { actor } = show();
    await screen.findByRole('radio', { name: /1200 Lake Shore Drive/ });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText(/Wallet password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: /^Pay / }));
    await screen.findByText('The password is incorrect.');
    fireEvent.change(screen.getByLabelText(/Wallet password/), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: /^Pay / }));
    await waitFor(actor, (s) => s.matches('connectionError'));
    fireEvent.click((await screen.findAllByRole('button', { name: /retry|try again/i })).at(-1)!);
    await screen.findByText('Order placed and paid');
    const keys = api.checkout.mock.calls.map((c) => c[1]);
    expect(keys[1]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(api.checkout.mock.calls[2][0]).toEqual({ payment_method: 'wallet', address_id: 3, password: 'right' });
  });

  it('card goes to the provider page; over the counter hands off to the OTC request', async () => {
    ready();
    api.checkout.mockResolvedValueOnce({ ...PAID, outcome: 'redirect', url: 'http://localhost:9/pay/cs_test_1' });
    const first = show();
    await screen.findByRole('radio', { name: /1200 Lake Shore Drive/ });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('radio', { name: /Card/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue to card payment' }));
    await vi.waitFor(() => expect(first.redirect).toHaveBeenCalledWith({ url: 'http://localhost:9/pay/cs_test_1' }));
    first.actor.stop();
  });

  it('a new address is checked before leaving the step; a balance too low and a sold-out item are their own states', async () => {
    api.cart.mockResolvedValue(CART);
    api.addresses.mockResolvedValue({ items: [], next_page_url: null });
    api.checkout
      .mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'insufficient_balance', errors: { payment_method: ['store:checkout.errors.insufficientBalance'] } }))
      .mockRejectedValueOnce(new ApiError('badRequest', 409, { error_code: 'out_of_stock', errors: { 'items.12': ['store:checkout.errors.outOfStock'] } }));
    const { actor } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect((await screen.findAllByText('This field is required.')).length).toBe(4);
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Rae' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Address' }), { target: { value: '1 Main St' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'City' }), { target: { value: 'Springfield' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Country' }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText(/Wallet password/), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: /^Pay / }));
    await screen.findByText('Not enough balance');
    expect(api.checkout.mock.calls[0][0].address).toMatchObject({ first_name: 'Rae', city: 'Springfield', country_id: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Choose another way to pay' }));
    fireEvent.click(await screen.findByRole('radio', { name: /Over the counter/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Place order and pay over the counter' }));
    await screen.findByText('Sold out meanwhile');
    fireEvent.click(screen.getByRole('button', { name: 'Review my cart again' }));
    await waitFor(actor, (s) => s.matches('address'));
  });

  it('load failures: connection (retry), server (retry); an empty cart has nothing to check out', async () => {
    api.addresses.mockResolvedValue({ items: [], next_page_url: null });
    api.cart.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce({ ...CART, items: [] });
    const { actor } = show();
    fireEvent.click((await screen.findAllByRole('button', { name: /retry|try again/i })).at(-1)!);
    await waitFor(actor, (s) => s.matches('loadServerError'));
    fireEvent.click((await screen.findAllByRole('button', { name: /retry|try again/i })).at(-1)!);
    await screen.findByText('Nothing to check out');
  });
});

describe('card payment result page', () => {
  const status = (over: object) => ({ session_id: 'cs_test_1', purpose: 'order', ref_id: 99, amount: '35', status: 'paid', order: null, ...over });
  it('paid, still open (check again), not found, and a server error with retry', async () => {
    api.cardStatus.mockResolvedValueOnce(status({ status: 'open' })).mockResolvedValueOnce(status({}));
    const actor = createActor(cardPaymentResultMachine, { input: { params: 'cs_test_1' } }).start();
    const { unmount } = renderUi(<CardPaymentView actor={actor} />);
    await screen.findByText('Payment not confirmed yet');
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await screen.findByText('Payment received');
    unmount();

    api.cardStatus.mockRejectedValueOnce(new ApiError('notFound', 404, { error_code: 'not_found' }));
    const missing = createActor(cardPaymentResultMachine, { input: { params: 'cs_test_2' } }).start();
    const second = renderUi(<CardPaymentView actor={missing} />);
    await screen.findByText('Payment not found');
    second.unmount();

    api.cardStatus.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(status({}));
    const broken = createActor(cardPaymentResultMachine, { input: { params: 'cs_test_3' } }).start();
    renderUi(<CardPaymentView actor={broken} />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    });
    await screen.findByText('Payment received');
  });

  it('a payment refunded because what it paid for sold out meanwhile says it was refunded', async () => {
    api.cardStatus.mockResolvedValueOnce(status({ status: 'refunded', purpose: 'topup' }));
    const actor = createActor(cardPaymentResultMachine, { input: { params: 'cs_test_4' } }).start();
    renderUi(<CardPaymentView actor={actor} />);
    await screen.findByText('Payment refunded');
    expect(screen.getByText(/could no longer be fulfilled, so it was refunded to your card/)).toBeTruthy();
  });
});
