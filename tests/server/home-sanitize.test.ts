// @vitest-environment jsdom
/**
 * The article sanitiser: hostile HTML comes out harmless (checked by parsing the output with a real
 * HTML parser, the DOM environment's DOMParser), ordinary article markup comes out intact.
 */
import { describe, expect, it } from 'vitest';
import { htmlToText, safeUrl, sanitizeHtml } from '../../server/lib/home';

const ALLOWED: Record<string, string[]> = {
  p: [], br: [], hr: [], div: [], span: [], strong: [], b: [], em: [], i: [], u: [], s: [], small: [], sub: [], sup: [], mark: [],
  h2: [], h3: [], h4: [], h5: [], h6: [], blockquote: [], ul: [], ol: ['start'], li: [], code: [], pre: [], figure: [], figcaption: [],
  table: [], thead: [], tbody: [], tr: [], th: ['colspan', 'rowspan', 'scope'], td: ['colspan', 'rowspan'],
  a: ['href', 'title', 'rel', 'target'], img: ['src', 'alt', 'title', 'width', 'height'],
};

/** What a browser would build from the output: only allowed elements and attributes, only safe URLs. */
function assertHarmless(html: string) {
  const document = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    expect(Object.keys(ALLOWED), `element <${tag}> in ${html}`).toContain(tag);
    for (const attr of Array.from(el.attributes)) {
      expect(ALLOWED[tag], `attribute ${attr.name} on <${tag}> in ${html}`).toContain(attr.name);
      if (attr.name === 'href' || attr.name === 'src') {
        const v = attr.value.trim();
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v)?.[1]?.toLowerCase();
        if (scheme) expect(['http', 'https', 'mailto', 'tel']).toContain(scheme);
        else {
          expect(v).not.toMatch(/^[\\/]{2}/);
          expect(v).not.toMatch(/^[^/?#]*:/);
        }
      }
      if (attr.name === 'target') expect(attr.value).toBe('_blank');
    }
  }
  expect(html).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|form|input|meta|link|base|template|textarea|noscript)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="/a.png" onerror="alert(1)">',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<img/src="x"/onerror=alert(1)>',
  '<img src="https://ok.example/x.png" srcset="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" &#14;  javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="jav\tascript:alert(1)">x</a>',
  '<a href="java\u0000script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.example/x">x</a>',
  '<a href="/\\evil.example">x</a>',
  '<a href="\\\\evil.example">x</a>',
  '<a href=javascript:alert(1)>x</a>',
  '<a href="https://ok.example" onclick="alert(1)" onmouseover = "alert(1)">ok</a>',
  '<a href="https://ok.example" title=\'"><script>alert(1)</script>\'>t</a>',
  '<a href="https://ok.example" target="_self" rel="opener">t</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button><input onfocus=alert(1) autofocus></form>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>alert(1)//<</script>',
  '<!--<script>alert(1)</script>-->',
  '<!-- unterminated <script>alert(1)</script>',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<?xml version="1.0"?><script>alert(1)</script>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title><script>alert(1)</script></title>',
  '<template><script>alert(1)</script></template>',
  '<style>@import "https://evil.example/x.css";</style><p>after</p>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<img src="/x.png" onerror="alert(1)',
  '<a href="https://ok.example',
  '<scri\u0000pt>alert(1)</scri\u0000pt>',
  '<plaintext><script>alert(1)</script>',
  '<p><a href="https://ok.example"><img src="/a.png" onload="alert(1)"></a></p>',
  '"><img src=x onerror=alert(1)>',
  '<div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><div><script>alert(1)</script>',
];

describe('hostile HTML', () => {
  it.each(HOSTILE)('%s', (input) => {
    const out = sanitizeHtml(input);
    assertHarmless(out);
    // Sanitising twice changes nothing: the output is already a fixed point.
    expect(sanitizeHtml(out)).toBe(out);
  });

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
    expect(sanitizeHtml('line<br/>break<hr>')).toBe('line<br>break<hr>');
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
