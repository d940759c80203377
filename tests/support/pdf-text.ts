/**
 * The text a PDF written by pdfkit shows, read back without a PDF library: every content stream (inflated
 * when FlateDecode), each `[...] TJ` / `(...) Tj` text operator's strings decoded — with the ToUnicode map of
 * the font selected by the last `Tf` for embedded fonts (two-byte glyph codes), else as the standard fonts'
 * single-byte codes — one line per operator.
 */
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

/** Every `N 0 obj … endobj` of the file, its dictionary text and its (inflated) stream. */
function objectsOf(bytes: Buffer): Map<number, PdfObject> {
  const raw = bytes.toString('latin1');
  const out = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endobj', start);
    const text = raw.slice(start, end);
    const s = /stream\r?\n/.exec(text);
    let stream: Buffer | null = null;
    let dict = text;
    if (s && text.lastIndexOf('endstream') > s.index) {
      dict = text.slice(0, s.index);
      const from = start + s.index + s[0].length;
      stream = bytes.subarray(from, start + text.lastIndexOf('endstream'));
      if (/\/FlateDecode/.test(dict)) {
        try {
          stream = inflateSync(stream);
        } catch {
          stream = null;
        }
      }
    }
    out.set(Number(m[1]), { dict, stream });
    re.lastIndex = end;
  }
  return out;
}

/** A ToUnicode CMap's code → text (bfchar and bfrange, the forms pdfkit writes). */
function cmapOf(text: string): Map<number, string> {
  const map = new Map<number, string>();
  const utf16 = (hex: string) => Buffer.from(hex.replace(/\s/g, ''), 'hex').swap16().toString('utf16le');
  for (const block of text.matchAll(/beginbfrange([^]*?)endbfrange/g)) {
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const from = parseInt(r[1], 16);
      const to = parseInt(r[2], 16);
      if (r[3].startsWith('[')) [...r[3].matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach((d, i) => map.set(from + i, utf16(d[1])));
      else {
        const first = parseInt(r[3].slice(1, -1), 16);
        for (let c = from; c <= to; c++) map.set(c, String.fromCodePoint(first + c - from));
      }
    }
  }
  for (const block of text.matchAll(/beginbfchar([^]*?)endbfchar/g)) {
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) map.set(parseInt(r[1], 16), utf16(r[2]));
  }
  return map;
}

export function pdfText(bytes: Buffer): string {
  const objects = objectsOf(bytes);
  // Font resource name (F1, F2…: pdfkit numbers them for the whole document) → the ToUnicode map of an embedded font.
  const maps = new Map<string, Map<number, string>>();
  for (const o of objects.values()) {
    const fonts = /\/Font\s*<<([^>]*)>>/.exec(o.dict)?.[1];
    if (!fonts) continue;
    for (const [, name, ref] of fonts.matchAll(/\/([\w.+-]+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(ref));
      const uni = font && /\/ToUnicode\s+(\d+) 0 R/.exec(font.dict)?.[1];
      const cmap = uni ? objects.get(Number(uni))?.stream : null;
      if (cmap) maps.set(name, cmapOf(cmap.toString('latin1')));
    }
  }
  const lines: string[] = [];
  for (const o of objects.values()) {
    if (!o.stream || /\/(Length1|Subtype\s*\/(Image|Type1C|CIDFontType0C))\b/.test(o.dict) || /begincmap/.test(o.stream.toString('latin1', 0, 200))) continue;
    const text = o.stream.toString('latin1');
    let map: Map<number, string> | undefined;
    const hex = (h: string) => {
      const clean = h.replace(/\s/g, '');
      if (!map) return Buffer.from(clean, 'hex').toString('latin1');
      let s = '';
      for (let i = 0; i + 4 <= clean.length; i += 4) s += map.get(parseInt(clean.slice(i, i + 4), 16)) ?? '\uFFFD';
      return s;
    };
    const op = /\/([\w.+-]+)\s+[\d.]+\s+Tf|\[((?:<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g;
    for (const m of text.matchAll(op)) {
      if (m[1] !== undefined) {
        map = maps.get(m[1]);
        continue;
      }
      const parts = m[2] !== undefined ? [...m[2].matchAll(/<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)/g)] : [[m[0], m[3], m[4]] as unknown as RegExpMatchArray];
      lines.push(parts.map((p) => (p[1] !== undefined ? hex(p[1]) : (p[2] ?? '').replace(/\\([()\\])/g, '$1'))).join(''));
    }
  }
  return lines.join('\n');
}
