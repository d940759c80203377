/**
 * Fonts for the PDFs the server writes, shipped as npm packages and embedded (subset) in each document, so
 * that any name prints as typed: DejaVu Sans (dejavu-fonts-ttf: Latin with every accent, Greek, Cyrillic…)
 * and, for the Chinese, Japanese and Korean characters DejaVu lacks, Noto Sans SC (@fontsource/noto-sans-sc,
 * split by its package into files by Unicode range, as its CSS declares; only the files a text needs are read).
 *
 * `runs` cuts a text into pieces that one font can show; the PDF writes them one after the other.
 * Licences: DejaVu's (Bitstream Vera derived, free to embed), Noto's SIL Open Font License 1.1.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export type Weight = 'regular' | 'bold';

/** A font as registered with pdfkit: its name in the document and its file. */
export interface PdfFont {
  name: string;
  file: string;
}

const DEJAVU: Record<Weight, PdfFont> = {
  regular: { name: 'DejaVuSans', file: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf') },
  bold: { name: 'DejaVuSans-Bold', file: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') },
};

interface RangeFile {
  ranges: Array<[number, number]>;
  font: PdfFont;
}

/** The Noto Sans SC files of a weight with the code points each holds (from the package's CSS). */
function notoFiles(weight: Weight): RangeFile[] {
  const w = weight === 'bold' ? 700 : 400;
  const css = readFileSync(require.resolve(`@fontsource/noto-sans-sc/${w}.css`), 'utf8');
  const dir = path.dirname(require.resolve(`@fontsource/noto-sans-sc/${w}.css`));
  const out: RangeFile[] = [];
  for (const face of css.split('@font-face').slice(1)) {
    const file = /url\(\.\/(files\/[^)]+\.woff)\)/.exec(face)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(face)?.[1];
    if (!file || !range) continue;
    const ranges = range.split(',').map((r): [number, number] => {
      const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(a, 16), parseInt(b ?? a, 16)];
    });
    out.push({ ranges, font: { name: `NotoSansSC-${w}-${path.basename(file, '.woff')}`, file: path.join(dir, file) } });
  }
  return out;
}

const files = new Map<Weight, RangeFile[]>();

/** Chinese, Japanese and Korean: CJK punctuation, kana, Hangul, ideographs, full-width forms. DejaVu has none. */
const CJK: Array<[number, number]> = [
  [0x2e80, 0x2fdf],
  [0x3000, 0x9fff],
  [0xac00, 0xd7af],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xffef],
  [0x20000, 0x3134f],
];

/** The font that shows `cp`: the Noto Sans SC file holding a CJK character, else DejaVu. */
function fontFor(weight: Weight, cp: number): PdfFont {
  if (!CJK.some(([a, b]) => cp >= a && cp <= b)) return DEJAVU[weight];
  let list = files.get(weight);
  if (!list) files.set(weight, (list = notoFiles(weight)));
  return list.find((f) => f.ranges.some(([a, b]) => cp >= a && cp <= b))?.font ?? DEJAVU[weight];
}

/** The main font of a weight. */
export const baseFont = (weight: Weight): PdfFont => DEJAVU[weight];

/** `text` as consecutive pieces, each shown by one font. */
export function runs(text: string, weight: Weight): Array<{ text: string; font: PdfFont }> {
  const out: Array<{ text: string; font: PdfFont }> = [];
  for (const ch of text) {
    const font = /\s/.test(ch) && out.length ? out[out.length - 1].font : fontFor(weight, ch.codePointAt(0)!);
    const last = out[out.length - 1];
    if (last && last.font === font) last.text += ch;
    else out.push({ text: ch, font });
  }
  return out;
}
