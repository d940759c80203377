/**
 * Link builders: contact and share links (spec §7 "Other", §2 contact links on the blocked screens)
 * and the external storefront's links (spec §2). Pure functions returning URLs; no React.
 */
import type { Company, ModuleData } from '../schemas/common.schema';

const enc = encodeURIComponent;

/** Query string with RFC 3986 encoding (spaces as %20, which mail clients need); empty values skipped. */
function query(params: Record<string, string | null | undefined>): string {
  const parts = Object.entries(params)
    .filter((e): e is [string, string] => e[1] != null && e[1] !== '')
    .map(([k, v]) => `${enc(k)}=${enc(v)}`);
  return parts.join('&');
}

function withQuery(base: string, params: Record<string, string | null | undefined>): string {
  const q = query(params);
  return q ? `${base}?${q}` : base;
}

/** Digits of a phone number (drops +, spaces, dashes, brackets). */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D+/g, '');
}

// ---- contact -------------------------------------------------------------------------------------

export function mailtoLink(email: string, options: { subject?: string; body?: string } = {}): string {
  return withQuery(`mailto:${email.trim()}`, { subject: options.subject, body: options.body });
}

/** tel: link keeping a leading + (international numbers) and the digits. */
export function telLink(phone: string): string {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${phoneDigits(trimmed)}`;
}

/** WhatsApp chat with a number (international format, digits only). */
export function whatsappChatLink(phone: string, text?: string): string {
  return withQuery(`https://wa.me/${phoneDigits(phone)}`, { text });
}

/** Telegram: a @username or a phone number (t.me/+<digits>). */
export function telegramLink(handleOrPhone: string): string {
  const v = handleOrPhone.trim();
  if (/^\+?[\d\s().-]+$/.test(v)) return `https://t.me/+${phoneDigits(v)}`;
  return `https://t.me/${v.replace(/^@/, '')}`;
}

export function skypeLink(name: string): string {
  return `skype:${name.trim()}?chat`;
}

// ---- share intents -------------------------------------------------------------------------------

export interface ShareContent {
  url: string;
  text?: string;
}

export function shareWhatsappLink({ url, text }: ShareContent): string {
  return withQuery('https://wa.me/', { text: text ? `${text} ${url}` : url });
}

export function shareTwitterLink({ url, text }: ShareContent): string {
  return withQuery('https://twitter.com/intent/tweet', { url, text });
}

export function shareFacebookLink({ url }: ShareContent): string {
  return withQuery('https://www.facebook.com/sharer/sharer.php', { u: url });
}

export function shareLinkedinLink({ url }: ShareContent): string {
  return withQuery('https://www.linkedin.com/sharing/share-offsite/', { url });
}

export function shareEmailLink({ url, text }: ShareContent, subject?: string): string {
  return mailtoLink('', { subject: subject ?? text, body: text ? `${text}\n${url}` : url });
}

/** Every share intent of spec §7 for `content`, by key (the label is `common:share.<key>`). */
export function shareLinks(content: ShareContent): Array<{ key: 'whatsapp' | 'twitter' | 'facebook' | 'linkedin' | 'email'; href: string }> {
  return [
    { key: 'whatsapp', href: shareWhatsappLink(content) },
    { key: 'twitter', href: shareTwitterLink(content) },
    { key: 'facebook', href: shareFacebookLink(content) },
    { key: 'linkedin', href: shareLinkedinLink(content) },
    { key: 'email', href: shareEmailLink(content) },
  ];
}

// ---- support e-mail (spec §5) --------------------------------------------------------------------

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isValidEmail(value: string | null | undefined): value is string {
  return typeof value === 'string' && EMAIL.test(value.trim());
}

/** The company's support e-mail when it is a valid address, otherwise the company e-mail. */
export function validSupportEmail(company: Pick<Company, 'support_email' | 'email'>): string {
  return isValidEmail(company.support_email) ? company.support_email.trim() : company.email;
}

// ---- storefront (spec §2) ------------------------------------------------------------------------

/** The base URL of the storefront: the default store's, else the first store's; null when none is known. */
export function storefrontBase(modules: ModuleData | null | undefined): string | null {
  const store = modules?.stores?.find((s) => s.id === modules.default_store_id) ?? modules?.stores?.[0];
  return store?.url || null;
}

/** The storefront entry script: the base URL itself when it already names a script, else <base>/index.php. */
function storefrontEntry(base: string): string {
  const b = base.trim().replace(/\/+$/, '');
  return /\.php$/i.test(b) ? b : `${b}/index.php`;
}

/** A storefront page by route, with extra query parameters. */
export function storefrontLink(base: string, route: string, params: Record<string, string | null | undefined> = {}): string {
  // The route keeps its slashes readable (route=account/login), as the storefront writes them.
  const rest = query(params);
  return `${storefrontEntry(base)}?route=${enc(route).replace(/%2F/gi, '/')}${rest ? `&${rest}` : ''}`;
}

/** Login, optionally returning to `redirect` afterwards. */
export function storefrontLoginLink(base: string, redirect?: string | null): string {
  return storefrontLink(base, 'account/login', { redirect });
}

export function storefrontRegisterLink(base: string): string {
  return storefrontLink(base, 'account/register');
}

/** Single sign-on into the storefront with the member's SSO token. */
export function storefrontSsoLoginLink(base: string, token: string, redirect?: string | null): string {
  return storefrontLink(base, 'account/sso_login', { token, redirect });
}

/** Single sign-on logout of the storefront (opened in a new tab). */
export function storefrontSsoLogoutLink(base: string, token: string): string {
  return storefrontLink(base, 'account/sso_logout', { token });
}

export function storefrontCategoryLink(base: string, path: string): string {
  return storefrontLink(base, 'product/category', { path });
}

/** Legacy builder: a raw query string appended to the storefront entry, the home page by default. */
export function legacyStorefrontLink(base: string, queryString = 'route=common/home'): string {
  const q = queryString.replace(/^\?/, '');
  return q ? `${storefrontEntry(base)}?${q}` : storefrontEntry(base);
}

/** A link as it is shared: absolute, on this site's origin when the server gives a path (referral links). */
export function absoluteUrl(link: string, origin = typeof window !== 'undefined' ? window.location.origin : ''): string {
  try {
    return new URL(link, origin || undefined).href;
  } catch {
    return link;
  }
}
