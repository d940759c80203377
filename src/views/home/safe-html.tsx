/**
 * Editor HTML on screen (articles). The server already passes it through the allow-list of
 * src/lib/html-policy.ts; the browser cleans it again with DOMPurify configured from the same policy
 * (defence in depth), and both sides keep each element's attributes through the policy's own
 * `cleanAttributes`, so they agree on every rule.
 *
 * DOMPurify needs a DOM: without one (a render on the server) the fragment renders as nothing.
 */
import { Typography } from '@mantine/core';
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import {
  HTML_POLICY,
  acceptedAttributes,
  acceptedSchemes,
  acceptedTags,
  cleanAttributes,
  elementName,
  keepsElement,
} from '../../lib/html-policy';
import './safe-html.css';

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: acceptedTags(),
  ALLOWED_ATTR: acceptedAttributes(),
  FORBID_CONTENTS: [...HTML_POLICY.dropWithContent],
  // Absolute URLs with an allowed scheme, or relative ones (the policy's own check is stricter and runs after).
  ALLOWED_URI_REGEXP: new RegExp(`^(?:(?:${acceptedSchemes().join('|')}):|[^a-z]|[a-z+.\\-]+(?:[^a-z+.\\-:]|$))`, 'i'),
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  // Parsed as the content of an element in the page body, which is where it ends up (not as a whole document, where a
  // leading element can land in the head).
  FORCE_BODY: true,
  RETURN_DOM_FRAGMENT: true,
};

const attributesOf = (el: Element): Record<string, string> => Object.fromEntries(Array.from(el.attributes, (a) => [a.name, a.value]));

/** Leaves exactly the attributes the policy keeps on `el` (as the element it will be written as). */
function applyPolicyAttributes(node: Node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const el = node as Element;
  const kept = cleanAttributes(elementName(el.localName), attributesOf(el));
  for (const name of el.getAttributeNames()) if (!Object.prototype.hasOwnProperty.call(kept, name)) el.removeAttribute(name);
  for (const [name, value] of Object.entries(kept)) if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

let purifier: Purifier | null | undefined;
function instance(): Purifier | null {
  if (purifier === undefined) {
    purifier = typeof window === 'undefined' || !window.document ? null : DOMPurify(window);
    if (purifier && !purifier.isSupported) purifier = null;
    purifier?.addHook('afterSanitizeAttributes', applyPolicyAttributes);
  }
  return purifier;
}

/** Renames, drops (a required attribute lost) and unwraps (nested too deep) elements as the policy says. */
function applyPolicyStructure(parent: ParentNode, depth: number) {
  for (const child of Array.from(parent.children)) {
    let el = child;
    const name = elementName(el.localName);
    if (name !== el.localName) {
      const renamed = el.ownerDocument.createElement(name);
      for (const a of Array.from(el.attributes)) renamed.setAttribute(a.name, a.value);
      renamed.append(...Array.from(el.childNodes));
      el.replaceWith(renamed);
      el = renamed;
    }
    if (!keepsElement(name, attributesOf(el))) {
      el.remove();
      continue;
    }
    applyPolicyStructure(el, depth + 1);
    if (depth >= HTML_POLICY.maxNesting) el.replaceWith(...Array.from(el.childNodes));
  }
}

/** The allow-listed form of an HTML fragment ('' where there is no DOM). */
export function sanitizeHtml(html: string): string {
  const purify = instance();
  if (!purify) return '';
  const fragment = purify.sanitize(html, CONFIG);
  applyPolicyStructure(fragment, 0);
  const holder = fragment.ownerDocument.createElement('div');
  holder.append(fragment);
  return holder.innerHTML;
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return (
    <Typography className={className ? `upline-safe-html ${className}` : 'upline-safe-html'}>
      <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
    </Typography>
  );
}
