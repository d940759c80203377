// @vitest-environment jsdom
/**
 * The server's sanitiser: hostile HTML comes out harmless (checked by parsing the output with a real
 * HTML parser, the DOM environment's DOMParser), ordinary article markup comes out intact, and every
 * input of the shared corpus gets the result the browser's sanitiser gives it too
 * (tests/views/safe-html.test.tsx holds the browser to the same corpus).
 */
import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from '../../server/lib/sanitize';
import { allowedUrl as safeUrl } from '../../src/lib/html-policy';
import { assertHarmless, describeCorpus } from '../support/html-corpus';

describeCorpus('the shared corpus (the browser gives the same results)', (html) => sanitizeHtml(html));

describe('hostile HTML', () => {
  it('drops the content of script-like elements instead of showing it', () => {
    expect(sanitizeHtml('<p>a<script>alert(1)</script>b</p>')).toBe('<p>ab</p>');
    expect(sanitizeHtml('x<style>p{color:red}</style>y')).toBe('xy');
    expect(sanitizeHtml('x<svg><text>svg text</text></svg>y')).toBe('xy');
  });

  it('keeps a link whose only problem was an event handler, without the handler', () => {
    expect(sanitizeHtml('<a href="https://ok.example" onclick="alert(1)">ok</a>')).toBe(
      '<a href="https://ok.example" rel="noopener noreferrer nofollow" target="_blank">ok</a>',
    );
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
  });
});

describe('ordinary article markup', () => {
  it('comes out as written (links open safely in a new tab)', () => {
    const html =
      '<h2>Title</h2><p>Hello <strong>world</strong>, <em>this</em> is <a href="https://upline.example/x?a=1&amp;b=2">a link</a>.</p>' +
      '<ul><li>One</li><li>Two</li></ul><ol start="3"><li>Three</li></ol><blockquote>Quote</blockquote>' +
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<figure><img src="/images/a.png" alt="A picture" width="640" height="360"><figcaption>Caption</figcaption></figure>' +
      '<p><a href="/member/kyc">KYC</a> · <a href="mailto:support@upline.example">mail</a> · <a href="#top">top</a></p>';
    const out = sanitizeHtml(html);
    expect(out).toBe(
      html
        .replace('height="360">', 'height="360" />')
        .replace('a=1&amp;b=2">', 'a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank">')
        .replace('href="/member/kyc">', 'href="/member/kyc" rel="noopener noreferrer nofollow" target="_blank">')
        .replace('href="mailto:support@upline.example">', 'href="mailto:support@upline.example" rel="noopener noreferrer nofollow" target="_blank">')
        .replace('href="#top">', 'href="#top" rel="noopener noreferrer nofollow" target="_blank">'),
    );
    assertHarmless(out);
  });

  it('keeps text and character references, closes what was left open, turns h1 into h2', () => {
    expect(sanitizeHtml('Fish &amp; chips &lt;3 &copy; 2026 &#8364;5 &unknown; 1 < 2')).toBe('Fish &amp; chips &lt;3 © 2026 €5 &amp;unknown; 1 &lt; 2');
    expect(sanitizeHtml('<p>one <b>two')).toBe('<p>one <b>two</b></p>');
    expect(sanitizeHtml('<p>a</b>b</p></div>')).toBe('<p>ab</p>');
    expect(sanitizeHtml('<h1>Big</h1>')).toBe('<h2>Big</h2>');
    expect(sanitizeHtml('<P CLASS="x" ID="y">Up</P>')).toBe('<p>Up</p>');
    expect(sanitizeHtml('line<br/>break<hr>')).toBe('line<br />break<hr />');
    expect(sanitizeHtml('<td colspan="abc" rowspan="2">x</td>')).toBe('<td rowspan="2">x</td>');
    expect(sanitizeHtml(null)).toBe('');
  });

  it('plain text of a fragment', () => {
    expect(htmlToText('<p>Hello <b>there</b></p><script>x()</script><p>Fish &amp; chips</p>')).toBe('Hello there Fish & chips');
  });

  it('URL rules for links and images', () => {
    expect(safeUrl('https://a.example/x', 'link')).toBe('https://a.example/x');
    expect(safeUrl('tel:+15550100', 'link')).toBe('tel:+15550100');
    expect(safeUrl('tel:+15550100', 'image')).toBeNull();
    expect(safeUrl('/img/a.png', 'image')).toBe('/img/a.png');
    expect(safeUrl('img/a.png', 'image')).toBeNull();
    expect(safeUrl('page?x=1', 'link')).toBe('page?x=1');
    expect(safeUrl(' \n ', 'link')).toBeNull();
  });
});
