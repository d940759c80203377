/**
 * HTML from editors (articles, and any other rich text the server hands out) passes through here
 * before it is served: sanitize-html configured from the one allow-list, src/lib/html-policy.ts
 * (the browser cleans it again with DOMPurify from the same policy). The output is re-serialised from
 * the parsed input: only allowed elements with allowed attributes, every text run and attribute value
 * escaped, comments and processing instructions gone.
 */
import sanitize from 'sanitize-html';
import { HTML_POLICY, acceptedAttributes, acceptedTags, cleanAttributes, elementName, keepsElement } from '../../src/lib/html-policy';

const attributeNames = acceptedAttributes();

const OPTIONS: sanitize.IOptions = {
  allowedTags: acceptedTags(),
  allowedAttributes: Object.fromEntries(acceptedTags().map((tag) => [tag, attributeNames])),
  allowedClasses: { ...HTML_POLICY.classes } as Record<string, string[]>,
  allowedSchemes: [...HTML_POLICY.urls.link.schemes],
  allowedSchemesByTag: { img: [...HTML_POLICY.urls.image.schemes] },
  allowedSchemesAppliedToAttributes: Object.keys(HTML_POLICY.urlAttributes),
  allowProtocolRelative: false,
  nonTextTags: [...HTML_POLICY.dropWithContent],
  disallowedTagsMode: 'discard',
  nestingLimit: HTML_POLICY.maxNesting,
  // Every element is renamed and its attributes cleaned by the policy itself; the options above are a second fence.
  transformTags: {
    '*': (tagName, attribs) => {
      const name = elementName(tagName);
      return { tagName: name, attribs: cleanAttributes(name, attribs) };
    },
  },
  exclusiveFilter: (frame) => !keepsElement(elementName(frame.tag), frame.attribs),
};

/** The allow-listed form of an HTML fragment ('' for none). */
export function sanitizeHtml(input: string | null | undefined): string {
  return sanitize(String(input ?? ''), OPTIONS);
}

/** Texts of fragments already read (the same fragments are listed again and again: message snippets). */
const TEXT_MEMO = new Map<string, string>();
const TEXT_MEMO_ENTRIES = 1_000;
/** Longer fragments are read every time (a memo of them would hold too much). */
const TEXT_MEMO_MAX_LENGTH = 8_000;

/** Plain text of an HTML fragment (elements dropped, references decoded, whitespace collapsed). */
export function htmlToText(input: string | null | undefined): string {
  const html = String(input ?? '');
  const kept = TEXT_MEMO.get(html);
  if (kept !== undefined) return kept;
  // The sanitised form has no '<' or '>' outside its tags and escapes only these four characters.
  const text = sanitizeHtml(html)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (html.length <= TEXT_MEMO_MAX_LENGTH) {
    if (TEXT_MEMO.size >= TEXT_MEMO_ENTRIES) TEXT_MEMO.clear();
    TEXT_MEMO.set(html, text);
  }
  return text;
}
