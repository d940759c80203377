/**
 * Article HTML on screen. The server already passes it through its allow-list; this component
 * sanitises it again in the browser with a strict allow-list (defence in depth): only the tags and
 * attributes below survive, links keep only http(s) and mailto targets and open in a new tab, images
 * only http(s) or same-origin paths. Everything else (scripts, styles, event handlers, iframes) is dropped.
 */
import { Typography } from '@mantine/core';

const TAGS = new Set([
  'p', 'br', 'div', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'ul', 'ol', 'li', 'a',
  'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'span', 'img', 'hr', 'code', 'pre', 'figure', 'figcaption',
  'table', 'thead', 'tbody', 'tr', 'th', 'td',
]);
/** Dropped together with their content. */
const DROP = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'form', 'textarea', 'select', 'title', 'head']);
const ATTRS: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};

const safeUrl = (value: string, kinds: RegExp) => {
  const v = value.trim();
  return kinds.test(v) ? v : null;
};

function clean(node: Node, doc: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP.has(tag)) return null;
  const children = Array.from(el.childNodes)
    .map((c) => clean(c, doc))
    .filter((c): c is Node => c !== null);
  if (!TAGS.has(tag)) {
    const frag = doc.createDocumentFragment();
    children.forEach((c) => frag.appendChild(c));
    return frag;
  }
  const out = doc.createElement(tag);
  for (const name of ATTRS[tag] ?? []) {
    const value = el.getAttribute(name);
    if (value === null) continue;
    if (name === 'href') {
      const href = safeUrl(value, /^(https?:|mailto:)/i);
      if (href) out.setAttribute('href', href);
    } else if (name === 'src') {
      const src = safeUrl(value, /^(https?:|\/(?!\/))/i);
      if (src) out.setAttribute('src', src);
    } else out.setAttribute(name, value);
  }
  if (tag === 'a') {
    out.setAttribute('target', '_blank');
    out.setAttribute('rel', 'noopener noreferrer');
  }
  children.forEach((c) => out.appendChild(c));
  return out;
}

/** The allow-listed form of an HTML fragment. */
export function sanitizeHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const holder = doc.createElement('div');
  for (const child of Array.from(doc.body.childNodes)) {
    const c = clean(child, doc);
    if (c) holder.appendChild(c);
  }
  return holder.innerHTML;
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return (
    <Typography className={className}>
      <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
    </Typography>
  );
}
