/** Sample data of the shapes the API answers with, for session and SSO tests (company and modules from the demo seed). */
import type { LoginResponse } from '../../src/schemas/auth.schema';
import type { ModuleData, User } from '../../src/schemas/common.schema';
import { DEFAULT_CURRENCY } from '../../src/schemas/values.schema';
import { COMPANY, MODULES } from '../../server/seed/reference';
import { ApiError } from '../../src/api/errors';

export function user(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    username: 'demo',
    account_type: 'personal',
    first_name: 'Dana',
    last_name: 'Member ',
    avatar: null,
    status: 1,
    role_id: 3,
    date_format: 'M d, Y h:i A',
    customer_id: null,
    referral_link: 'https://upline.example/r/demo',
    email: 'demo@upline.example',
    ...overrides,
  };
}

export const ENGLISH = { id: 1, name: 'English', code: 'en', native_name: 'English' };
export const SPANISH = { id: 2, name: 'Spanish', code: 'es', native_name: 'Español' };
export const EURO = { id: 2, name: 'Euro', code: 'EUR', symbol: '€', symbol_position: 'R' as const, decimal_place: 2, value: '0.92' };

export function loginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    token: 'access-token-0123456789abcdef',
    user: user(),
    user_status: 1,
    user_allowed: true,
    is_master_demo: false,
    compensation_plan: 'binary',
    default_store_id: null,
    store_token: null,
    sso_token: 'sso-token-0123456789abcdef',
    default_currency: EURO,
    default_language: SPANISH,
    cart: [],
    ...overrides,
  };
}

export function moduleData(overrides: Partial<ModuleData> = {}): ModuleData {
  return {
    company: { ...COMPANY, logo: null, logo_small: null },
    modules: { ...MODULES, upgrade: false, autoship: false, unilevel_bonus: false },
    default_language: ENGLISH,
    default_currency: DEFAULT_CURRENCY,
    date_format: 'M d, Y h:i A',
    default_country: null,
    user: null,
    cart: [{ id: 1, price: '10.00', quantity: 1, status: true }],
    store_settings: null,
    stores: [],
    customer_token: null,
    is_demo: false,
    is_master_demo: false,
    demo_info: null,
    default_store_id: null,
    languages: [ENGLISH, SPANISH],
    currencies: [DEFAULT_CURRENCY, EURO],
    ...overrides,
  };
}

/** The server's answer to an SSO token it does not accept. */
export const invalidSsoToken = () =>
  new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { sso_token: ['validation:invalidToken'] } });
