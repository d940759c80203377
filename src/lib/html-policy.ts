/**
 * The one allow-list for HTML written with a rich-text editor (articles, event descriptions, mail and
 * notification bodies): which elements, attributes, classes and URLs survive, what becomes of links
 * and images. The server (server/lib/sanitize.ts, sanitize-html) and the browser
 * (src/views/home/safe-html.tsx, DOMPurify) are both configured from this module, and both call
 * `cleanAttributes` for every element they keep, so the two cannot disagree about a rule.
 *
 * Data and pure functions only: no DOM, no library.
 *
 * Everything not listed goes: scripts, styles (elements and the style attribute), frames, forms,
 * SVG and MathML, event handlers, ids and names, data-* attributes, and every URL whose scheme is not
 * listed (javascript:, vbscript:, data:, file: …). An article's own title is its heading 1, so a
 * heading 1 in the body becomes a heading 2.
 */

export type UrlKind = 'link' | 'image';

/** Text alignment an editor may set on a block, as a class (the style attribute never survives). */
const ALIGN_CLASSES = ['align-left', 'align-center', 'align-right', 'align-justify'] as const;
const ALIGNABLE = ['p', 'div', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'li', 'th', 'td', 'figure', 'figcaption', 'caption'] as const;

export const HTML_POLICY = {
  /** Allowed elements and the attributes an author may set on each (besides `class`, see `classes`). */
  tags: {
    p: [],
    br: [],
    hr: [],
    div: [],
    span: [],
    strong: [],
    b: [],
    em: [],
    i: [],
    u: [],
    s: [],
    del: [],
    ins: [],
    small: [],
    sub: [],
    sup: [],
    mark: [],
    h2: [],
    h3: [],
    h4: [],
    h5: [],
    h6: [],
    blockquote: [],
    ul: [],
    ol: ['start'],
    li: [],
    code: [],
    pre: [],
    figure: [],
    figcaption: [],
    table: [],
    caption: [],
    thead: [],
    tbody: [],
    tfoot: [],
    tr: [],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
  } as Readonly<Record<string, readonly string[]>>,

  /** Elements written under another name: the body's heading 1 is below the article's title; the old strike is s. */
  renamedTags: { h1: 'h2', strike: 's' } as Readonly<Record<string, string>>,

  /** Elements dropped together with everything inside them (their content is code, media or controls, not text). */
  dropWithContent: [
    'script', 'style', 'textarea', 'option', 'xmp', 'title', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext',
    'template', 'svg', 'math', 'object', 'applet', 'embed', 'select', 'head', 'frameset', 'frame', 'canvas', 'audio',
    'video', 'button', 'form',
  ] as readonly string[],

  /** Classes allowed per element (anything else in `class` is dropped). */
  classes: Object.fromEntries(ALIGNABLE.map((tag) => [tag, ALIGN_CLASSES])) as Readonly<Record<string, readonly string[]>>,

  /** Attributes holding a URL, and which rule their URL follows. */
  urlAttributes: { href: 'link', src: 'image' } as Readonly<Record<string, UrlKind>>,
  /**
   * URL rules. `schemes`: the absolute URLs allowed. `relative`: 'any' allows every same-site address
   * (path, query, fragment), 'path' only an absolute path ('/…'); protocol-relative addresses ('//host')
   * never pass.
   */
  urls: {
    link: { schemes: ['http', 'https', 'mailto', 'tel'], relative: 'any' },
    image: { schemes: ['http', 'https'], relative: 'path' },
  } as Readonly<Record<UrlKind, { schemes: readonly string[]; relative: 'any' | 'path' }>>,

  /** Whole numbers of at most 4 digits. */
  numberAttributes: ['width', 'height', 'colspan', 'rowspan', 'start'] as readonly string[],
  /** Attributes with a closed set of values (compared in lower case). */
  enumeratedAttributes: { scope: ['row', 'col', 'rowgroup', 'colgroup'] } as Readonly<Record<string, readonly string[]>>,
  /** Attributes kept when empty; any other empty attribute goes. */
  emptyAllowed: ['alt'] as readonly string[],
  /** Longest text attribute value kept (longer ones are cut). */
  maxAttributeLength: 500,

  /** Every link with a URL opens in a new tab, without access to this page and without passing it on. */
  link: { target: '_blank', rel: 'noopener noreferrer nofollow' },

  /** Elements that go when they lose these attributes (an image without a safe source shows nothing). */
  requiredAttributes: { img: ['src'] } as Readonly<Record<string, readonly string[]>>,

  /** Elements nested deeper than this are unwrapped (their text stays). */
  maxNesting: 64,
} as const;

const own = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The name an element is written under (see `renamedTags`). */
export function elementName(tag: string): string {
  return own(HTML_POLICY.renamedTags, tag) ? HTML_POLICY.renamedTags[tag] : tag;
}

/** Element names a sanitiser lets through before renaming: the allowed ones and those renamed to one of them. */
export function acceptedTags(): string[] {
  return [...Object.keys(HTML_POLICY.tags), ...Object.keys(HTML_POLICY.renamedTags)];
}

/** Every attribute name that can appear on some kept element (author-set, class, and the link's own). */
export function acceptedAttributes(): string[] {
  const names = new Set(Object.values(HTML_POLICY.tags).flat());
  if (Object.keys(HTML_POLICY.classes).length) names.add('class');
  names.add('target').add('rel');
  return [...names];
}

/** Every scheme some URL attribute allows. */
export function acceptedSchemes(): string[] {
  return [...new Set(Object.values(HTML_POLICY.urls).flatMap((u) => u.schemes))];
}

/**
 * The URL a member may follow (`link`) or load (`image`), or null. Browsers ignore leading and
 * trailing controls and spaces and every tab and newline inside a URL, so the check does the same
 * first and returns the URL in that form. A URL with a raw '<' or '>' never passes (real ones encode them).
 */
export function allowedUrl(raw: string, kind: UrlKind): string | null {
  // eslint-disable-next-line no-control-regex
  const v = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (!v || /[<>]/.test(v)) return null;
  const rule = HTML_POLICY.urls[kind];
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  if (scheme) return rule.schemes.includes(scheme[1].toLowerCase()) ? v : null;
  // Relative: no protocol-relative address ("//host", "/\host", "\host"), nothing else that reads as a scheme.
  if (/^[\\/][\\/]/.test(v) || v.startsWith('\\')) return null;
  if (/^[^/?#]*:/.test(v)) return null;
  if (rule.relative === 'path' && !v.startsWith('/')) return null;
  return v;
}

function cleanValue(name: string, raw: string): string | null {
  if (own(HTML_POLICY.urlAttributes, name)) return allowedUrl(raw, HTML_POLICY.urlAttributes[name]);
  const value = raw.trim();
  if (HTML_POLICY.numberAttributes.includes(name)) return /^\d{1,4}$/.test(value) ? value : null;
  if (own(HTML_POLICY.enumeratedAttributes, name)) {
    const lower = value.toLowerCase();
    return HTML_POLICY.enumeratedAttributes[name].includes(lower) ? lower : null;
  }
  if (raw === '' && !HTML_POLICY.emptyAllowed.includes(name)) return null;
  // Markup inside an attribute is never text an author meant; it is how attacks on parsers begin.
  if (/[<>]/.test(raw)) return null;
  return raw.slice(0, HTML_POLICY.maxAttributeLength);
}

/**
 * The attributes element `tag` (its name after renaming) keeps out of `attrs` (names in lower case,
 * values decoded): allowed names only, values checked, classes filtered, and a link with a URL given
 * its target and rel. In the order of the policy, so the result does not depend on the input's order.
 */
export function cleanAttributes(tag: string, attrs: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of own(HTML_POLICY.tags, tag) ? HTML_POLICY.tags[tag] : []) {
    if (!own(attrs, name)) continue;
    const value = cleanValue(name, attrs[name]);
    if (value !== null) out[name] = value;
  }
  if (own(HTML_POLICY.classes, tag) && own(attrs, 'class')) {
    const allowed = HTML_POLICY.classes[tag];
    const kept = [...new Set(attrs.class.split(/[\t\n\f\r ]+/).filter((c) => allowed.includes(c)))];
    if (kept.length) out.class = kept.join(' ');
  }
  if (tag === 'a' && own(out, 'href')) {
    out.rel = HTML_POLICY.link.rel;
    out.target = HTML_POLICY.link.target;
  }
  return out;
}

/** Whether element `tag` with its cleaned attributes stays (see `requiredAttributes`). */
export function keepsElement(tag: string, cleaned: Readonly<Record<string, string>>): boolean {
  return !own(HTML_POLICY.requiredAttributes, tag) || HTML_POLICY.requiredAttributes[tag].every((name) => own(cleaned, name));
}
