// @vitest-environment node
/**
 * What the server tells members (notices and their e-mails) exists in every language the product
 * speaks: each notice has a subject and a body in public/locales/{lng}/notices.json, the translation
 * uses the same values as the English text (a missing value would print "{{…}}" to the member), and
 * nothing is left untranslated.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTICE_KEYS, noticeText } from '../../server/lib/member-notices';
import { SUPPORTED_LANGUAGES } from '../../src/i18n/languages';

const texts = (lng: string) =>
  JSON.parse(readFileSync(path.join(process.cwd(), 'public/locales', lng, 'notices.json'), 'utf8')) as Record<string, { subject: string; body: string }>;
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('notice texts', () => {
  const en = texts('en');

  it('the English file has exactly the notices the server sends', () => {
    expect(Object.keys(en).sort()).toEqual([...NOTICE_KEYS].sort());
  });

  it.each(SUPPORTED_LANGUAGES.filter((l) => l !== 'en'))('%s has every notice, with the same values, translated', (lng) => {
    const other = texts(lng);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const key of NOTICE_KEYS) {
      for (const part of ['subject', 'body'] as const) {
        expect(placeholders(other[key][part]), `${lng} ${key}.${part}`).toEqual(placeholders(en[key][part]));
        // A text made of values only ("{{text}}") reads the same in every language.
        if (/\p{L}/u.test(en[key][part].replace(/\{\{\w+\}\}/g, ''))) expect(other[key][part], `${lng} ${key}.${part}`).not.toBe(en[key][part]);
      }
    }
  });

  it('fills in the values and keeps subjects to one line of at most 200 characters', async () => {
    const long = 'x'.repeat(300);
    const t = await noticeText('es', { key: 'new_message', values: { subject: long, name: 'Ana', snippet: 'Hola' } });
    expect(t.subject).toHaveLength(200);
    expect(t.subject.startsWith('Mensaje nuevo: xxx')).toBe(true);
    expect(t.body).toBe('Ana: Hola');
    const paid = await noticeText('en', { key: 'order_paid', values: { invoice: 'INV-9', amount: '12.50' } });
    expect(paid).toEqual({ subject: 'Your order INV-9 is paid', body: 'Your order INV-9 of 12.50 is paid and being processed.' });
  });

  it('writes values as they are (plain text, not HTML-escaped)', async () => {
    const t = await noticeText('en', { key: 'rank_achieved', values: { rank: 'Gold & <Diamond>' } });
    expect(t.subject).toBe('You reached the rank Gold & <Diamond>');
  });
});
