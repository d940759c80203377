/**
 * Browser protections on every answer:
 *
 * - pages: a Content-Security-Policy whose scripts are the server's own files and the page's inline scripts
 *   named by their SHA-256 hashes (no 'unsafe-inline', no eval); the JSON data block of a rendered page is
 *   not a script the browser runs, so it needs none. Styles may be inline (Mantine writes its CSS variables
 *   and style attributes at run time).
 * - everything else: a policy that allows nothing (an answer opened as a document runs nothing, loads nothing).
 * - always: no framing (frame-ancestors 'none', X-Frame-Options), no MIME sniffing, a same-origin referrer,
 *   browser features off (Permissions-Policy); signed-in answers are never stored (Cache-Control: no-store).
 */
import { createHash } from 'node:crypto';

/** Every inline `<script>` the browser runs (no src; no type, or a JavaScript or module type). */
const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;
const RUNS = /^(|text\/javascript|application\/javascript|module)$/i;

/** 'sha256-…' sources for the inline scripts of `html`. */
export function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? '';
    if (!RUNS.test(type)) continue;
    out.add(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return [...out];
}

/** The policy of a page whose inline scripts have these hashes. */
export function pagePolicy(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' https:",
    // The privacy-enhanced players of videos the company publishes (src/lib/video-embed.ts accepts only these).
    'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of everything that is not a page (API answers, files). */
export const NOTHING_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const PERMISSIONS_POLICY = 'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=()';

/** The headers every answer carries; `signedIn` answers are never stored; a page's policy is set where it is sent. */
export function applySecurityHeaders(reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }, signedIn: boolean) {
  if (!reply.getHeader('content-security-policy')) reply.header('Content-Security-Policy', NOTHING_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'same-origin');
  reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  if (signedIn) reply.header('Cache-Control', 'no-store');
}
