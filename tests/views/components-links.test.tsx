import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  legacyStorefrontLink,
  mailtoLink,
  shareEmailLink,
  shareFacebookLink,
  shareLinkedinLink,
  shareTwitterLink,
  shareWhatsappLink,
  skypeLink,
  storefrontCategoryLink,
  storefrontLoginLink,
  storefrontRegisterLink,
  storefrontSsoLoginLink,
  storefrontSsoLogoutLink,
  telLink,
  telegramLink,
  validSupportEmail,
  whatsappChatLink,
} from '../../src/lib/links';

describe('contact links', () => {
  it('mailto, with subject and body encoded for mail clients', () => {
    expect(mailtoLink(' help@acme.example ')).toBe('mailto:help@acme.example');
    expect(mailtoLink('help@acme.example', { subject: 'Account blocked', body: 'Hi & thanks' })).toBe(
      'mailto:help@acme.example?subject=Account%20blocked&body=Hi%20%26%20thanks',
    );
  });

  it('tel keeps the international plus and the digits', () => {
    expect(telLink('+1 (555) 010-2030')).toBe('tel:+15550102030');
    expect(telLink('0555 010 2030')).toBe('tel:05550102030');
  });

  it('WhatsApp chat, Telegram (phone or username) and Skype', () => {
    expect(whatsappChatLink('+34 600-111-222')).toBe('https://wa.me/34600111222');
    expect(whatsappChatLink('+34 600 111 222', 'Hello there')).toBe('https://wa.me/34600111222?text=Hello%20there');
    expect(telegramLink('+34 600 111 222')).toBe('https://t.me/+34600111222');
    expect(telegramLink('@upline_support')).toBe('https://t.me/upline_support');
    expect(skypeLink('upline.sales')).toBe('skype:upline.sales?chat');
  });
});

describe('share intents', () => {
  const content = { url: 'https://upline.example/r/ana?x=1', text: 'Join my team' };

  it('builds each network’s share URL with the link encoded', () => {
    expect(shareWhatsappLink(content)).toBe('https://wa.me/?text=Join%20my%20team%20https%3A%2F%2Fupline.example%2Fr%2Fana%3Fx%3D1');
    expect(shareTwitterLink(content)).toBe(
      'https://twitter.com/intent/tweet?url=https%3A%2F%2Fupline.example%2Fr%2Fana%3Fx%3D1&text=Join%20my%20team',
    );
    expect(shareFacebookLink(content)).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fupline.example%2Fr%2Fana%3Fx%3D1');
    expect(shareLinkedinLink(content)).toBe(
      'https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fupline.example%2Fr%2Fana%3Fx%3D1',
    );
    expect(shareEmailLink(content)).toBe(
      'mailto:?subject=Join%20my%20team&body=Join%20my%20team%0Ahttps%3A%2F%2Fupline.example%2Fr%2Fana%3Fx%3D1',
    );
    expect(shareWhatsappLink({ url: 'https://u.example' })).toBe('https://wa.me/?text=https%3A%2F%2Fu.example');
  });
});

describe('support e-mail (spec §5)', () => {
  it('uses the support e-mail when valid, otherwise the company e-mail', () => {
    expect(validSupportEmail({ support_email: 'help@acme.example', email: 'office@acme.example' })).toBe('help@acme.example');
    expect(validSupportEmail({ support_email: ' help@acme.example ', email: 'office@acme.example' })).toBe('help@acme.example');
    for (const bad of [null, '', 'help', 'help@acme', 'help @acme.example', 'help@@acme.example']) {
      expect(validSupportEmail({ support_email: bad, email: 'office@acme.example' })).toBe('office@acme.example');
    }
    expect(isValidEmail('a.b+c@mail.co.uk')).toBe(true);
  });
});

describe('storefront links (spec §2)', () => {
  const base = 'https://shop.acme.example/';

  it('login with and without redirect', () => {
    expect(storefrontLoginLink(base)).toBe('https://shop.acme.example/index.php?route=account/login');
    expect(storefrontLoginLink(base, 'https://shop.acme.example/cart')).toBe(
      'https://shop.acme.example/index.php?route=account/login&redirect=https%3A%2F%2Fshop.acme.example%2Fcart',
    );
  });

  it('register, SSO login/logout and product category routes', () => {
    expect(storefrontRegisterLink(base)).toBe('https://shop.acme.example/index.php?route=account/register');
    expect(storefrontSsoLoginLink(base, 'tok123', '/checkout')).toBe(
      'https://shop.acme.example/index.php?route=account/sso_login&token=tok123&redirect=%2Fcheckout',
    );
    expect(storefrontSsoLoginLink(base, 'tok123')).toBe('https://shop.acme.example/index.php?route=account/sso_login&token=tok123');
    expect(storefrontSsoLogoutLink(base, 'tok 9')).toBe('https://shop.acme.example/index.php?route=account/sso_logout&token=tok%209');
    expect(storefrontCategoryLink(base, '20_27')).toBe('https://shop.acme.example/index.php?route=product/category&path=20_27');
  });

  it('a base that already names the entry script is used as is', () => {
    expect(storefrontRegisterLink('https://acme.example/store/index.php')).toBe(
      'https://acme.example/store/index.php?route=account/register',
    );
  });

  it('legacy builder defaults to route=common/home and passes a given query through', () => {
    expect(legacyStorefrontLink(base)).toBe('https://shop.acme.example/index.php?route=common/home');
    expect(legacyStorefrontLink(base, '?route=product/product&product_id=42')).toBe(
      'https://shop.acme.example/index.php?route=product/product&product_id=42',
    );
  });
});
