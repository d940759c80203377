/**
 * Company settings (feature switches, policies) kept as JSON rows of `settings`, cached in memory.
 *
 * Several server processes may share the database: every change of the settings or the reference data
 * (by any process, or by hand) raises `settings_version` and is announced on the channel upline_settings
 * (migration 0014). Each process drops its cache when it hears of a change, and, in case a notice was lost,
 * compares the version row at most every RECHECK_MS when it reads the settings.
 */
import { eq, asc, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { countries, currencies, languages, settings } from '../db/schema';
import type { Company, Country, Currency, DemoInfo, Language, ModuleData, Modules, User } from '../../src/schemas/common.schema';
import type { PasswordPolicy } from '../../src/schemas/auth.schema';
import type { MemberRow } from '../db/schema';
import { cartModule } from './shop';

export interface AuthSettings {
  login_with_otp: boolean;
  phone_unique: boolean;
  email_unique: boolean;
  reset_password_based_on: 'email' | 'mobile' | 'both';
  password_policy: PasswordPolicy;
  signup_location: 'app' | 'store';
}

export interface SignupSettings {
  default_sponsor: string;
  otp_verification: boolean;
  otp_based_on: 'email' | 'mobile';
  show_signup_page: boolean;
  enforce_default_sponsor: boolean;
  enforce_link_sponsor: boolean;
  company_privacy_url: string | null;
  company_terms_url: string | null;
}

export interface SettingsMap {
  company: Company;
  modules: Modules;
  date_format: string;
  demo_info: DemoInfo;
  auth: AuthSettings;
  signup: SignupSettings;
  store_settings: ModuleData['store_settings'];
  default_country_iso: string;
}

/** How stale the cache may be when a change notice was lost. */
export const RECHECK_MS = 2000;
export const SETTINGS_CHANNEL = 'upline_settings';

export class SettingsService {
  private cache: Partial<SettingsMap> | null = null;
  /** The database's settings_version when the cache was last known fresh (null: not read yet). */
  private seen: string | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;
  private refs: { languages: Language[]; currencies: Currency[]; countries: Country[] } | null = null;

  constructor(
    private readonly db: Db,
    private readonly demoMode: () => boolean,
  ) {}

  /** Goes up whenever the settings may have changed (anything derived from them can tell it is stale). */
  version = 0;

  invalidate() {
    this.cache = null;
    this.refs = null;
    this.derived.clear();
    this.version++;
  }

  private readonly derived = new Map<string, Promise<unknown>>();

  /**
   * Company-wide data (packages, ranks, articles, events…) read once under `key` and kept until any process
   * changes the settings or that data (their tables announce changes like the settings do, migration 0022).
   */
  async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    await this.fresh();
    let value = this.derived.get(key) as Promise<T> | undefined;
    if (!value) {
      value = load();
      this.derived.set(key, value);
      // A failed read is not kept; a change heard while reading has already dropped it.
      value.catch(() => this.derived.get(key) === value && this.derived.delete(key));
    }
    return value;
  }

  /** Drop the cache whenever any process changes the settings; returns the way to stop listening. */
  async follow(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
    return database.listen(SETTINGS_CHANNEL, (payload) => {
      if (payload !== null && payload === this.seen) return;
      this.invalidate();
      if (payload !== null) this.seen = payload;
    });
  }

  /** `version` once the cache is known to match the database (for caches derived from the settings). */
  async currentVersion(): Promise<number> {
    await this.fresh(true);
    return this.version;
  }

  /**
   * Compare the database's settings_version (at most every RECHECK_MS) and drop a stale cache. Readers do
   * not wait for the comparison (`wait` false): a reader may be inside a transaction, and on PGlite (one
   * connection) a query outside it would wait for it to end.
   */
  private async fresh(wait = false): Promise<void> {
    if (Date.now() - this.checkedAt < RECHECK_MS) return;
    this.checking ??= (async () => {
      try {
        const [row] = await this.db.execute<{ version: string }>(sql`SELECT version::text AS version FROM settings_version`).then(
          (r) => (r as unknown as { rows: Array<{ version: string }> }).rows,
        );
        const v = row?.version ?? null;
        if (v !== this.seen) {
          if (this.seen !== null) this.invalidate();
          this.seen = v;
        }
        this.checkedAt = Date.now();
      } catch {
        // Compared again at the next read.
      } finally {
        this.checking = null;
      }
    })();
    if (wait) await this.checking;
  }

  async all(): Promise<SettingsMap> {
    await this.fresh();
    if (!this.cache) {
      const asOf = this.version;
      const rows = await this.db.select().from(settings);
      const read = Object.fromEntries(rows.map((r) => [r.key, r.value])) as Partial<SettingsMap>;
      // Kept only when no change was heard of while reading (else the next call reads again).
      if (asOf !== this.version) return read as SettingsMap;
      this.cache = read;
    }
    return this.cache as SettingsMap;
  }

  async get<K extends keyof SettingsMap>(key: K): Promise<SettingsMap[K]> {
    return (await this.all())[key];
  }

  async set<K extends keyof SettingsMap>(key: K, value: SettingsMap[K]) {
    await this.db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value } });
    this.invalidate();
  }

  async reference() {
    await this.fresh();
    if (!this.refs) {
      const asOf = this.version;
      const [langs, curs, ctrs] = await Promise.all([
        this.db.select().from(languages).orderBy(asc(languages.id)),
        this.db.select().from(currencies).orderBy(asc(currencies.id)),
        this.db.select().from(countries).orderBy(asc(countries.name)),
      ]);
      const refs = {
        languages: langs.map((l) => ({ id: l.id, name: l.name, code: l.code, native_name: l.nativeName, _default: l.isDefault })) as Language[],
        currencies: curs.map((c) => ({
          id: c.id,
          name: c.name,
          code: c.code,
          symbol: c.symbol,
          symbol_position: c.symbolPosition as 'L' | 'R',
          decimal_place: c.decimalPlace,
          value: trimDecimal(c.value),
          _default: c.isDefault,
        })) as Currency[],
        countries: ctrs.map((c) => ({ id: c.id, name: c.name, iso_code_2: c.isoCode2, iso_code_3: c.isoCode3, phone_code: c.phoneCode })),
      };
      if (asOf !== this.version) return refs;
      this.refs = refs;
    }
    return this.refs;
  }

  async countries(): Promise<Country[]> {
    return (await this.reference()).countries;
  }

  async currencyByCode(code: string | null | undefined): Promise<Currency> {
    const { currencies: list } = await this.reference();
    return strip(list.find((c) => c.code === code) ?? list.find((c) => (c as { _default?: boolean })._default) ?? list[0]);
  }

  async languageByCode(code: string | null | undefined): Promise<Language> {
    const { languages: list } = await this.reference();
    return strip(list.find((l) => l.code === code) ?? list.find((l) => (l as { _default?: boolean })._default) ?? list[0]);
  }

  /** `loaded_modules` (spec §7) for this caller. */
  async moduleData(member: MemberRow | null): Promise<ModuleData> {
    const s = await this.all();
    const refs = await this.reference();
    const demo = this.demoMode();
    const defaultCountry = refs.countries.find((c) => c.iso_code_2 === s.default_country_iso) ?? null;
    return {
      company: s.company,
      modules: s.modules,
      default_language: await this.languageByCode(member?.languageCode),
      default_currency: await this.currencyByCode(member?.currencyCode),
      date_format: member?.dateFormat ?? s.date_format,
      default_country: defaultCountry,
      user: member ? toUser(member) : null,
      cart: member && s.modules?.internal_store ? await cartModule(this.db, member.id) : [],
      store_settings: s.store_settings,
      stores: [],
      customer_token: null,
      is_demo: demo,
      is_master_demo: false,
      demo_info: demo ? { ...s.demo_info, user_allowed: member ? member.demoAllowed : true } : null,
      default_store_id: s.store_settings?.default_store ?? null,
      languages: refs.languages.map(strip),
      currencies: refs.currencies.map(strip),
    };
  }
}

function strip<T extends object>(o: T): T {
  const { _default, ...rest } = o as T & { _default?: boolean };
  void _default;
  return rest as T;
}

/** "12.50000000" → "12.5"; "3.0000" → "3". (A loop over the last characters: the tree and the reports call it for every figure of every row.) */
export function trimDecimal(v: string): string {
  if (!v.includes('.')) return v;
  let end = v.length;
  while (v.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (v.charCodeAt(end - 1) === 46 /* . */) end--;
  const t = end === v.length ? v : v.slice(0, end);
  return t === '-0' ? '0' : t;
}

export function toUser(m: MemberRow): User {
  return {
    id: m.id,
    username: m.username,
    account_type: m.accountType as User['account_type'],
    first_name: m.firstName,
    last_name: m.lastName,
    avatar: m.avatar,
    status: m.status === 1 ? 1 : 0,
    role_id: (m.roleId === 1 || m.roleId === 2 ? m.roleId : 3) as User['role_id'],
    date_format: m.dateFormat,
    customer_id: m.customerId,
    referral_link: `/signup?referral=${encodeURIComponent(m.username)}`,
    email: m.email,
  };
}

export async function settingExists(db: Db, key: string) {
  const r = await db.select({ n: sql<number>`1` }).from(settings).where(eq(settings.key, key)).limit(1);
  return r.length > 0;
}
