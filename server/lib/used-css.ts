/**
 * The rules of a stylesheet that a page's markup can use: what a rendered page carries inline so that its first
 * paint parses and matches a few kilobytes of CSS instead of the whole library's (server/page-render.ts; the whole
 * stylesheet follows after that paint, before the app starts).
 *
 * Conservative by construction: a style rule is dropped only when one of the classes its selector requires (outside
 * any parentheses: `:not(.x)`, `:is(.a, .b)` never decide) is on no element of the markup. Rules without a class
 * (elements, `:root`, attributes), `@media` and `@supports` blocks with any kept rule, and the `@keyframes` a kept
 * rule names are kept; `@font-face` rules are left to the whole stylesheet (the page is painted in the system fonts
 * until the app runs: src/app/server-page.ts FONTS_LATER_ATTRIBUTE). Order is kept, so the cascade among the rules
 * kept is the stylesheet's own.
 *
 * A page is rendered in one colour scheme (the <html> element's data-mantine-color-scheme): given it, a selector that
 * requires the other scheme of the root (`[data-mantine-color-scheme=dark] .x`, `:root[data-mantine-color-scheme=dark]`,
 * `:host([data-mantine-color-scheme=dark])`) is dropped too, and with it the other scheme's custom properties. The
 * scheme cannot change before the whole stylesheet has taken the part's place: the page head hides the markup of a
 * browser that settles on another scheme, and a switch is the app's, which starts after that.
 */

export type CssNode = Node;
export type ColourScheme = 'light' | 'dark';
type Node =
  | { kind: 'rule'; selectors: { text: string; needs: string[]; scheme: ColourScheme | null }[]; declarations: { text: string; property: string | null; reads: string[] }[] } | { kind: 'at'; prelude: string; body: string | null; children: Node[] | null };

/** The index just past the block that starts at `open` (a "{"), skipping strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") i = stringEnd(css, i);
    else if (c === '/' && css[i + 1] === '*') i = css.indexOf('*/', i + 2) < 0 ? css.length : css.indexOf('*/', i + 2) + 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return css.length;
}

function stringEnd(css: string, start: number): number {
  const quote = css[start];
  for (let i = start + 1; i < css.length; i++) {
    if (css[i] === '\\') i++;
    else if (css[i] === quote) return i;
  }
  return css.length;
}

/** Splits a selector list at its top-level commas. */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '"' || c === "'") i = stringEnd(list, i);
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(list.slice(from).trim());
  return out.filter(Boolean);
}

/** The classes a selector requires of some element: those outside parentheses, brackets and strings. */
function requiredClasses(selector: string): string[] {
  let plain = '';
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '"' || c === "'") i = stringEnd(selector, i);
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0) plain += c === '\\' ? selector[i] + (selector[++i] ?? '') : c;
  }
  // An escaped character in a class name ("\:") keeps the selector (it is never required: the match is approximate).
  return [...plain.matchAll(/\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)(?![\\\w-])/g)].map((m) => m[1]);
}

const SCHEME_ATTRIBUTE = /\[data-mantine-color-scheme=(["']?)(light|dark)\1\]/;

/**
 * The colour scheme a selector requires of the root, or null: the scheme attribute outside parentheses (or inside
 * `:host(…)`, which is a condition on the element itself); `:not(…)`, `:is(…)` and the like never decide.
 */
function requiredScheme(selector: string): ColourScheme | null {
  const text = selector.replace(/:host\(([^()]*)\)/g, '$1');
  let plain = '';
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) plain += c;
  }
  return (SCHEME_ATTRIBUTE.exec(plain)?.[2] as ColourScheme | undefined) ?? null;
}

/** The stylesheet as a tree of rules and at-rules. */
export function parseCss(css: string): Node[] {
  const nodes: Node[] = [];
  let i = 0;
  while (i < css.length) {
    while (i < css.length && /\s/.test(css[i])) i++;
    if (css.startsWith('/*', i)) {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
      continue;
    }
    if (i >= css.length) break;
    // The prelude runs to the first "{" or ";" outside strings and parentheses.
    let j = i;
    let depth = 0;
    for (; j < css.length; j++) {
      const c = css[j];
      if (c === '"' || c === "'") j = stringEnd(css, j);
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (depth === 0 && (c === '{' || c === ';')) break;
    }
    const prelude = css.slice(i, j).trim();
    if (j >= css.length || css[j] === ';') {
      if (prelude) nodes.push({ kind: 'at', prelude, body: null, children: null });
      i = j + 1;
      continue;
    }
    const end = blockEnd(css, j);
    const inner = css.slice(j + 1, end - 1);
    if (prelude.startsWith('@')) {
      const grouping = /^@(media|supports|layer|container|scope|document)\b/i.test(prelude);
      nodes.push({ kind: 'at', prelude, body: grouping ? null : inner, children: grouping ? parseCss(inner) : null });
    } else {
      nodes.push({
        kind: 'rule',
        selectors: splitSelectors(prelude).map((text) => ({ text, needs: requiredClasses(text), scheme: requiredScheme(text) })),
        declarations: declarations(inner).map((text) => ({ text, property: customName(text), reads: [...text.matchAll(VAR)].map((m) => m[1]) })),
      });
    }
    i = end;
  }
  return nodes;
}

/** Every class on the elements of `html` (the values of its class attributes). */
export function classesOf(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) for (const c of m[1].split(/\s+/)) if (c) out.add(c);
  return out;
}

/** Splits a declaration block at its top-level semicolons. */
function declarations(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === "'") i = stringEnd(body, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ';' && depth === 0) {
      out.push(body.slice(from, i));
      from = i + 1;
    }
  }
  out.push(body.slice(from));
  return out.filter((d) => d.trim());
}

const VAR = /var\(\s*(--[\w-]+)/g;
const customName = (declaration: string) => /^\s*(--[\w-]+)\s*:/.exec(declaration)?.[1] ?? null;

/** The kept rules' declarations, and the custom properties they (and the markup) read, directly or through others. */
function usedProperties(nodes: Node[], classes: Set<string>, html: string, scheme: ColourScheme | null): Set<string> {
  const defined = new Map<string, string[]>();
  const used = new Set<string>();
  const read = (text: string, into: string[]) => {
    for (const m of text.matchAll(VAR)) into.push(m[1]);
  };
  const roots: string[] = [];
  read(html, roots);
  const walk = (list: Node[]) => {
    for (const node of list) {
      if (node.kind === 'rule') {
        if (!node.selectors.some((s) => matches(s, classes, scheme))) continue;
        for (const d of node.declarations) {
          if (d.property) (defined.get(d.property) ?? defined.set(d.property, []).get(d.property)!).push(...d.reads);
          else roots.push(...d.reads);
        }
      } else if (node.children) walk(node.children);
      else if (node.body !== null && !/^@font-face\b/i.test(node.prelude)) read(node.body, roots);
    }
  };
  walk(nodes);
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    queue.push(...(defined.get(name) ?? []));
  }
  return used;
}

/** True when the markup can use the selector: every class it requires is there, and the scheme it requires is the page's. */
const matches = (selector: { needs: string[]; scheme: ColourScheme | null }, classes: Set<string>, scheme: ColourScheme | null) =>
  selector.needs.every((c) => classes.has(c)) && (!scheme || !selector.scheme || selector.scheme === scheme);

function keptNodes(nodes: Node[], classes: Set<string>, properties: Set<string>, scheme: ColourScheme | null): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'rule') {
      const selectors = node.selectors.filter((s) => matches(s, classes, scheme));
      if (!selectors.length) continue;
      const body = node.declarations
        .filter((d) => !d.property || properties.has(d.property))
        .map((d) => d.text)
        .join(';');
      if (body) out += `${selectors.map((s) => s.text).join(',')}{${body}}`;
    } else if (node.children) {
      const inner = keptNodes(node.children, classes, properties, scheme);
      if (inner) out += `${node.prelude}{${inner}}`;
    } else if (node.body === null) {
      out += `${node.prelude};`;
    } else if (/^@font-face\b/i.test(node.prelude)) {
      // left to the whole stylesheet (see above)
    } else if (/^@(-webkit-)?keyframes\b/i.test(node.prelude)) {
      out += `\u0000${node.prelude}{${node.body}}\u0000`;
    } else {
      out += `${node.prelude}{${node.body}}`;
    }
  }
  return out;
}

/** The part of a parsed stylesheet that the markup `html` can use, drawn in colour scheme `scheme` when given (see above). */
export function usedCss(sheet: Node[], html: string, scheme: ColourScheme | null = null): string {
  const classes = classesOf(html);
  // An element of the markup carrying the attribute itself would make it no longer the root's alone.
  if (/\sdata-mantine-color-scheme=/.test(html)) scheme = null;
  const kept = keptNodes(sheet, classes, usedProperties(sheet, classes, html, scheme), scheme);
  // The keyframes (marked above) that a kept rule names; the others go.
  const rules = kept.replace(/\u0000[^\u0000]*\u0000/g, '');
  return kept.replace(/\u0000(@(?:-webkit-)?keyframes\s+([^\s{]+))\{([^\u0000]*)\}\u0000/g, (_all, prelude: string, name: string, body: string) =>
    new RegExp(`(^|[^-\\w])${name.replace(/[^\w-]/g, '\\$&')}($|[^-\\w])`).test(rules) ? `${prelude}{${body}}` : '',
  );
}
