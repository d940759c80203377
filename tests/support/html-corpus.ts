/**
 * One corpus of HTML for both sanitisers (server/lib/sanitize.ts and src/views/home/safe-html.tsx):
 * each input with the result the policy gives it (src/lib/html-policy.ts), written in canonical form
 * (`canonicalHtml`), so the server's and the browser's tests hold both sides to the same answer. And an
 * oracle of harmless HTML that does not read the policy's code: what may never survive, whatever the
 * policy says.
 *
 * Needs a DOM (the tests using it run in jsdom).
 */
import { describe, expect, it } from 'vitest';

/** Classic attacks: scripts, handlers, hostile URLs (encoded, mixed case, split), SVG/MathML, styles, frames, forms, broken markup. */
export const HOSTILE_HTML: ReadonlyArray<readonly [input: string, expected: string]> = [
  ['<script>alert(1)</script>', ''],
  ['<SCRIPT SRC=https://evil.example/x.js></SCRIPT>', ''],
  ['<img src=x onerror=alert(1)>', ''],
  ['<img src="/a.png" onerror="alert(1)">', '<img src="/a.png">'],
  ['<IMG SRC="javascript:alert(\'XSS\');">', ''],
  ['<img/src="x"/onerror=alert(1)>', ''],
  ['<img src="https://ok.example/x.png" srcset="javascript:alert(1)">', '<img src="https://ok.example/x.png">'],
  ['<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">', ''],
  ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
  ['<a href=" &#14;  javascript:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="jav&#x0A;ascript:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="jav\tascript:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="java\u0000script:alert(1)">x</a>', '<a>x</a>'],
  ['<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>', '<a>x</a>'],
  ['<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>', '<a>x</a>'],
  ['<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
  ['<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
  ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
  ['<a href="//evil.example/x">x</a>', '<a>x</a>'],
  ['<a href="/\\evil.example">x</a>', '<a>x</a>'],
  ['<a href="\\\\evil.example">x</a>', '<a>x</a>'],
  ['<a href=javascript:alert(1)>x</a>', '<a>x</a>'],
  ['<a href="https://ok.example" onclick="alert(1)" onmouseover = "alert(1)">ok</a>', '<a href="https://ok.example" rel="noopener noreferrer nofollow" target="_blank">ok</a>'],
  ['<a href="https://ok.example" title=\'"><script>alert(1)</script>\'>t</a>', '<a href="https://ok.example" rel="noopener noreferrer nofollow" target="_blank">t</a>'],
  ['<a href="https://ok.example" target="_self" rel="opener">t</a>', '<a href="https://ok.example" rel="noopener noreferrer nofollow" target="_blank">t</a>'],
  ['<svg onload=alert(1)>', ''],
  ['<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>', ''],
  ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
  ['<iframe src="https://evil.example"></iframe>', ''],
  ['<iframe srcdoc="<script>alert(1)</script>">', ''],
  ['<object data="javascript:alert(1)"></object>', ''],
  ['<embed src="javascript:alert(1)">', ''],
  ['<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button><input onfocus=alert(1) autofocus></form>', ''],
  ['<details open ontoggle=alert(1)>', ''],
  ['<body onload=alert(1)>', ''],
  ['<div style="background:url(javascript:alert(1))">x</div>', '<div>x</div>'],
  ['<p style="x:expression(alert(1))">x</p>', '<p>x</p>'],
  ['<scr<script>ipt>alert(1)</scr</script>ipt>', 'ipt&gt;alert(1)ipt&gt;'],
  ['<<script>alert(1)//<</script>', '&lt;'],
  ['<!--<script>alert(1)</script>-->', ''],
  ['<!-- unterminated <script>alert(1)</script>', ''],
  ['<?xml version="1.0"?><script>alert(1)</script>', ''],
  ['<noscript><p title="</noscript><img src=x onerror=alert(1)>">', ''],
  ['<xmp><img src=x onerror=alert(1)></xmp>', ''],
  ['<textarea><script>alert(1)</script></textarea>', ''],
  ['<title><script>alert(1)</script></title>', ''],
  ['<template><script>alert(1)</script></template>', ''],
  ['<style>@import "https://evil.example/x.css";</style><p>after</p>', '<p>after</p>'],
  ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
  ['<base href="javascript:alert(1)//">', ''],
  ['<link rel=stylesheet href="https://evil.example/x.css">', ''],
  ['<img src="/x.png" onerror="alert(1)', ''],
  ['<a href="https://ok.example', ''],
  ['<scri\u0000pt>alert(1)</scri\u0000pt>', 'alert(1)'],
  ['<plaintext><script>alert(1)</script>', ''],
  ['<p><a href="https://ok.example"><img src="/a.png" onload="alert(1)"></a></p>', '<p><a href="https://ok.example" rel="noopener noreferrer nofollow" target="_blank"><img src="/a.png"></a></p>'],
  ['"><img src=x onerror=alert(1)>', '"&gt;'],
  // Nested deeper than 64 levels: the inner elements are unwrapped.
  ['<div>'.repeat(68) + '<script>alert(1)</script>', '<div>'.repeat(64) + '</div>'.repeat(64)],
  ['<img src="a.png" alt="rel">', ''],
  ['<img src="tel:1">', ''],
  ['<div id="x" name="y" data-x="1" aria-label="l" lang="en" dir="rtl">attrs</div>', '<div>attrs</div>'],
  ['<font color="red">font</font><center>c</center><marquee>m</marquee>', 'fontcm'],
  ['<a href="http://x.example" target="_top">t</a>', '<a href="http://x.example" rel="noopener noreferrer nofollow" target="_blank">t</a>'],
  ['<svg><desc>d</desc></svg><desc>outside</desc>', 'outside'],
  ['<a href="%6A%61%76%61%73%63%72%69%70%74:alert(1)">enc</a>', '<a>enc</a>'],
  ['<a href="javascript&#58;alert(1)">c</a><a href="jAvAsCrIpT&colon;alert(1)">d</a>', '<a>c</a><a>d</a>'],
  ['<a href="data:text/html,<script>alert(1)</script>">d</a>', '<a>d</a>'],
  ['<img src="DATA:image/png;base64,AAAA">', ''],
  ['<math href="javascript:alert(1)">m</math>', ''],
  ['<svg><foreignObject><p>x</p></foreignObject></svg>', ''],
  ['<a href="//x.example">pr</a><img src="//x.example/a.png">', '<a>pr</a>'],
  ['<form><input name="q"></form>after', 'after'],
  ['<iframe>inner <b>text</b></iframe>after', 'after'],
  ['<noembed><img src=x onerror=alert(1)></noembed>', ''],
];

/** Ordinary editor output: what it keeps, cleans and repairs. */
export const RICH_TEXT_HTML: ReadonlyArray<readonly [input: string, expected: string]> = [
  [
    '<h2 class="align-center">Title</h2><p>Hello <strong>world</strong>, <em>this</em> is <u>under</u>, <s>gone</s>, <a href="https://upline.example/x?a=1&amp;b=2" title="More">a link</a>.</p>' +
      '<ul><li>One</li><li class="align-right">Two</li></ul><ol start="3"><li>Three</li></ol><blockquote>Quote</blockquote>' +
      '<figure><img src="/images/a.png" alt="A picture" width="640" height="360"><figcaption>Caption</figcaption></figure>' +
      '<p><a href="/member/kyc">KYC</a> · <a href="mailto:support@upline.example">mail</a> · <a href="#top">top</a> <code>x</code><sub>2</sub><sup>3</sup><mark>m</mark><small>s</small></p>',
    '<h2 class="align-center">Title</h2><p>Hello <strong>world</strong>, <em>this</em> is <u>under</u>, <s>gone</s>, <a href="https://upline.example/x?a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank" title="More">a link</a>.</p>' +
      '<ul><li>One</li><li class="align-right">Two</li></ul><ol start="3"><li>Three</li></ol><blockquote>Quote</blockquote>' +
      '<figure><img alt="A picture" height="360" src="/images/a.png" width="640"><figcaption>Caption</figcaption></figure>' +
      '<p><a href="/member/kyc" rel="noopener noreferrer nofollow" target="_blank">KYC</a> · <a href="mailto:support@upline.example" rel="noopener noreferrer nofollow" target="_blank">mail</a> · <a href="#top" rel="noopener noreferrer nofollow" target="_blank">top</a> <code>x</code><sub>2</sub><sup>3</sup><mark>m</mark><small>s</small></p>',
  ],
  ['<h1 class="align-center x">T</h1><p class="align-right align-right evil">r</p><strike>old</strike><del>d</del><ins>i</ins>', '<h2 class="align-center">T</h2><p class="align-right">r</p><s>old</s><del>d</del><ins>i</ins>'],
  ['<table><caption>Cap</caption><thead><tr><th scope="ROW" colspan="2">h</th></tr></thead><tfoot><tr><td rowspan="99999">f</td></tr></tfoot></table>', '<table><caption>Cap</caption><thead><tr><th colspan="2" scope="row">h</th></tr></thead><tfoot><tr><td>f</td></tr></tfoot></table>'],
  ['<img src="/a.png" alt="">', '<img alt="" src="/a.png">'],
  ['<a href="tel:+1555" title="">call</a>', '<a href="tel:+1555" rel="noopener noreferrer nofollow" target="_blank">call</a>'],
  ['<a href="  https://x.example/a b  ">sp</a>', '<a href="https://x.example/a b" rel="noopener noreferrer nofollow" target="_blank">sp</a>'],
  ['<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 &nbsp; &copy; &unknown;</p>', '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 &nbsp; © &amp;unknown;</p>'],
  ['<ul><li>a<li>b</ul><ol start="x"><li>c</ol>', '<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>'],
  ['<pre><code>const a = "<b>";</code></pre>', '<pre><code>const a = "<b>";</b></code></pre>'],
  ['<blockquote><p>q</p></blockquote><hr><br>', '<blockquote><p>q</p></blockquote><hr><br>'],
  ['<p>unclosed <em>em <strong>strong', '<p>unclosed <em>em <strong>strong</strong></em></p>'],
  ['<img src="https://x.example/a.png" width="100%" height="50">', '<img height="50" src="https://x.example/a.png">'],
];

/** Every input whose result both sides must agree on. */
export const HTML_CORPUS = [...HOSTILE_HTML, ...RICH_TEXT_HTML];

/**
 * Inputs a browser and the server's parser read differently (a CDATA section in HTML, misnested
 * formatting): the two results differ in shape, both must be harmless.
 */
export const PARSER_DEPENDENT_HTML: readonly string[] = [
  '<![CDATA[<script>alert(1)</script>]]>',
  '<a href="https://x.example"><b>nested <i>deep</b> unclosed</i></a>',
];

/** The fragment as a browser builds it, attributes sorted by name: equal strings mean equal documents. */
export function canonicalHtml(html: string): string {
  const body = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html').body;
  for (const el of Array.from(body.querySelectorAll('*'))) {
    const attrs = Array.from(el.attributes, (a) => [a.name, a.value] as const).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [name] of attrs) el.removeAttribute(name);
    for (const [name, value] of attrs) el.setAttribute(name, value);
  }
  return body.innerHTML;
}

/** Elements and attributes that may ever appear, independent of how the policy is written. */
const HARMLESS: Record<string, string[]> = {
  p: [], br: [], hr: [], div: [], span: [], strong: [], b: [], em: [], i: [], u: [], s: [], del: [], ins: [], small: [], sub: [], sup: [], mark: [],
  h2: [], h3: [], h4: [], h5: [], h6: [], blockquote: [], ul: [], ol: ['start'], li: [], code: [], pre: [], figure: [], figcaption: [],
  table: [], caption: [], thead: [], tbody: [], tfoot: [], tr: [], th: ['colspan', 'rowspan', 'scope'], td: ['colspan', 'rowspan'],
  a: ['href', 'title', 'rel', 'target'], img: ['src', 'alt', 'title', 'width', 'height'],
};
const ALIGN_CLASS = /^align-(left|center|right|justify)$/;

/** What a browser would build from `html`: only harmless elements and attributes, only safe URLs, new tabs without an opener. */
export function assertHarmless(html: string) {
  const body = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html').body;
  for (const el of Array.from(body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    expect(Object.keys(HARMLESS), `element <${tag}> in ${html}`).toContain(tag);
    for (const attr of Array.from(el.attributes)) {
      if (attr.name === 'class') {
        for (const c of attr.value.split(/\s+/)) expect(c, `class on <${tag}> in ${html}`).toMatch(ALIGN_CLASS);
        continue;
      }
      expect(HARMLESS[tag], `attribute ${attr.name} on <${tag}> in ${html}`).toContain(attr.name);
      if (attr.name === 'href' || attr.name === 'src') {
        const v = attr.value.trim();
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v)?.[1]?.toLowerCase();
        if (scheme) expect(attr.name === 'src' ? ['http', 'https'] : ['http', 'https', 'mailto', 'tel']).toContain(scheme);
        else {
          expect(v).not.toMatch(/^[\\/]{2}/);
          expect(v).not.toMatch(/^[^/?#]*:/);
        }
      }
      if (attr.name === 'target') {
        expect(attr.value).toBe('_blank');
        expect(el.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
      }
    }
  }
  expect(html).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|form|input|meta|link|base|template|textarea|noscript)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/\sstyle\s*=/i);
}

/**
 * The corpus tests of one sanitiser: each input gives its expected document, harmless, and cleaning the
 * result again changes nothing; the parser-dependent inputs come out harmless.
 */
export function describeCorpus(title: string, sanitize: (html: string) => string) {
  describe(title, () => {
    it.each(HTML_CORPUS)('%s', (input, expected) => {
      const out = sanitize(input);
      assertHarmless(out);
      expect(canonicalHtml(out)).toBe(expected);
      expect(sanitize(out)).toBe(out);
    });

    it.each(PARSER_DEPENDENT_HTML)('%s (parsers differ: harmless either way)', (input) => {
      const out = sanitize(input);
      assertHarmless(out);
      expect(sanitize(out)).toBe(out);
    });
  });
}
