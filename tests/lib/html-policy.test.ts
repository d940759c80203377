/**
 * The HTML policy (src/lib/html-policy.ts) on its own, and the two sanitisers built from it agreeing:
 * the browser's pass over what the server sends changes nothing, and both give each corpus input the
 * same document.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeHtml as serverSanitize } from '../../server/lib/sanitize';
import { allowedUrl, cleanAttributes, elementName, keepsElement } from '../../src/lib/html-policy';
import { sanitizeHtml as browserSanitize } from '../../src/views/home/safe-html';
import { HTML_CORPUS, PARSER_DEPENDENT_HTML, canonicalHtml } from '../support/html-corpus';

describe('allowedUrl', () => {
  it('lets links go to the web, mail, phone and this site', () => {
    expect(allowedUrl('https://a.example/x', 'link')).toBe('https://a.example/x');
    expect(allowedUrl('HTTP://a.example', 'link')).toBe('HTTP://a.example');
    expect(allowedUrl('mailto:a@b.example', 'link')).toBe('mailto:a@b.example');
    expect(allowedUrl('tel:+15550100', 'link')).toBe('tel:+15550100');
    expect(allowedUrl('page?x=1', 'link')).toBe('page?x=1');
    expect(allowedUrl('#top', 'link')).toBe('#top');
    expect(allowedUrl(' \n/member/kyc\t', 'link')).toBe('/member/kyc');
  });

  it('lets images load from the web or a path of this site only', () => {
    expect(allowedUrl('https://cdn.example/a.png', 'image')).toBe('https://cdn.example/a.png');
    expect(allowedUrl('/img/a.png', 'image')).toBe('/img/a.png');
    expect(allowedUrl('img/a.png', 'image')).toBeNull();
    expect(allowedUrl('tel:+15550100', 'image')).toBeNull();
    expect(allowedUrl('mailto:a@b.example', 'image')).toBeNull();
  });

  it('refuses script, data and other schemes however they are written, other hosts without a scheme, and markup', () => {
    for (const url of [
      'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' \u000e javascript:alert(1)', 'jav\tascript:alert(1)', 'java\nscript:alert(1)',
      'java\u0000script:alert(1)', 'vbscript:x', 'data:text/html,x', 'DATA:image/png;base64,AAAA', 'file:///etc/passwd',
      '//evil.example', '/\\evil.example', '\\\\evil.example', 'x:y', 'https://a.example/<script>', ' \n ', '',
    ]) {
      expect(allowedUrl(url, 'link'), url).toBeNull();
      expect(allowedUrl(url, 'image'), url).toBeNull();
    }
  });
});

describe('cleanAttributes', () => {
  it('keeps the allowed attributes in the policy order, with checked values', () => {
    expect(cleanAttributes('td', { rowspan: '2', colspan: 'x', onclick: 'a()', style: 'color:red' })).toEqual({ rowspan: '2' });
    expect(cleanAttributes('th', { scope: ' COL ' })).toEqual({ scope: 'col' });
    expect(cleanAttributes('th', { scope: 'table' })).toEqual({});
    expect(Object.keys(cleanAttributes('img', { height: '5', alt: '', src: '/a.png', width: '12345' }))).toEqual(['src', 'alt', 'height']);
    expect(cleanAttributes('img', { src: '/a.png', title: '' })).toEqual({ src: '/a.png' });
    expect(cleanAttributes('img', { src: '/a.png', title: 'a "quote" <b>' })).toEqual({ src: '/a.png' });
    expect(cleanAttributes('p', { title: 'x'.repeat(600) }).title).toBeUndefined();
    expect(cleanAttributes('span', { id: 'x', name: 'y', 'data-x': '1' })).toEqual({});
    expect(cleanAttributes('constructor', { href: 'https://a.example' })).toEqual({});
  });

  it('keeps only the alignment classes, on blocks', () => {
    expect(cleanAttributes('p', { class: 'evil align-center  align-center' })).toEqual({ class: 'align-center' });
    expect(cleanAttributes('p', { class: 'evil' })).toEqual({});
    expect(cleanAttributes('span', { class: 'align-center' })).toEqual({});
  });

  it('opens a link with an address in a new tab without an opener, whatever the author asked for', () => {
    expect(cleanAttributes('a', { href: 'https://a.example', target: '_self', rel: 'opener' })).toEqual({
      href: 'https://a.example',
      rel: 'noopener noreferrer nofollow',
      target: '_blank',
    });
    expect(cleanAttributes('a', { href: 'javascript:alert(1)', target: '_blank' })).toEqual({});
  });
});

describe('elements', () => {
  it('renames the body heading 1 and strike, drops an image without a safe source', () => {
    expect(elementName('h1')).toBe('h2');
    expect(elementName('strike')).toBe('s');
    expect(elementName('p')).toBe('p');
    expect(elementName('constructor')).toBe('constructor');
    expect(keepsElement('img', {})).toBe(false);
    expect(keepsElement('img', { src: '/a.png' })).toBe(true);
    expect(keepsElement('p', {})).toBe(true);
  });
});

describe('server and browser', () => {
  const inputs = [...HTML_CORPUS.map(([input]) => input), ...PARSER_DEPENDENT_HTML];

  it.each(HTML_CORPUS)('give %s the same document', (input) => {
    expect(canonicalHtml(browserSanitize(input))).toBe(canonicalHtml(serverSanitize(input)));
  });

  it.each(inputs)('the browser keeps all the server sends for %s', (input) => {
    const served = serverSanitize(input);
    expect(canonicalHtml(browserSanitize(served))).toBe(canonicalHtml(served));
  });
});
