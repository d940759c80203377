/** Answers of the package payment and over-the-counter calls, for machine, path and view tests. */
import type { PackagePaymentOptions, Purchase, WalletPaymentResult } from '../../src/schemas/packages.schema';
import type { OtcRequestAnswer } from '../../src/schemas/otc.schema';

const option = (id: number, name: string, price: string, bv: string, current: boolean, canUpgrade: boolean) => ({
  id, name, sku: `PKG-${name.toUpperCase()}`, sort_order: id, price, bv, expiry: 365, image: null, description: `${name} package`, max_levels: 3,
  direct_bonus: '5', roi_bonus: id === 3 ? '2' : '0', price_difference: String(Number(price) - 100), pv_difference: String(Number(bv) - 50), is_current: current, can_upgrade: canUpgrade,
});

export const OPTIONS: PackagePaymentOptions = {
  package_data: {
    package_status: 'active', direct_bonus: true, roi_bonus: false, direct_bonus_rate: '5', roi_bonus_rate: '0', unilevel_bonus: false, upgrade_status: true,
    autoship_status: false, price_difference: '150', pv_difference: '100', current_package_id: 1, current_package_expiry: '2027-01-01T00:00:00.000Z',
    packages: [option(1, 'Starter', '100', '50', true, false), option(2, 'Business', '250', '150', false, true), option(3, 'Elite', '500', '400', false, true)],
    plan: { compensation_plan: 'binary', matrix_width: null, matrix_depth: null, level_percents: [] },
  },
  roi: false,
  return_schedules: [],
  wallet_balance: '320.00',
  password_kind: 'account',
  methods: ['wallet', 'card', 'otc'],
};

export const ROI_OPTIONS: PackagePaymentOptions = { ...OPTIONS, roi: true, return_schedules: [{ package_id: 3, rate: '2.00', monthly: '10.00', months: 12, total: '120.00' }] };

export const PURCHASE: Purchase = {
  id: 41, kind: 'upgrade', status: 'pending', package_id: 2, package_name: 'Business', from_package_name: 'Starter', amount: '150.00', pv: '100.00',
  payment_method: null, order_id: null, created_at: '2026-11-25T10:00:00.000Z', paid_at: null,
};

export const WALLET_RESULT: WalletPaymentResult = {
  purchase: { ...PURCHASE, status: 'paid', payment_method: 'wallet', order_id: 900, paid_at: '2026-11-25T10:01:00.000Z' },
  wallet_balance: '170.00',
};

export const REQUEST: OtcRequestAnswer = {
  request: {
    id: 7, purpose: 'package', ref_id: 41, amount: '150.00', method: 'bank_deposit', reference: 'OTC-ABCD-EFGH', description: 'Upgrade Starter → Business',
    status: 'awaiting_payment', transaction_ref: null, receipt_id: null, receipt_name: null, reason: null, expires_at: '2026-12-02T10:00:00.000Z',
    created_at: '2026-11-25T10:00:00.000Z', submitted_at: null, decided_at: null,
  },
  bank: { bank_name: 'First Commerce Bank', account_name: 'Upline Inc.', account_number: '0012 3456 7890', iban: null, swift: 'FCBKUS33', branch: null, desk: null },
};

export const RECEIPT = new File([new Uint8Array([137, 80, 78, 71])], 'slip.png', { type: 'image/png' });
