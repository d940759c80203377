/**
 * The text a PDF written by pdfkit shows, read back without a PDF library: every content stream (inflated
 * when FlateDecode), each `[...] TJ` / `(...) Tj` text operator's strings decoded (hex or literal, the
 * standard fonts' single-byte codes), one line per operator.
 */
import { inflateSync } from 'node:zlib';

export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const lines: string[] = [];
  const streamRe = /<<([^]*?)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let body = bytes.subarray(start, end);
    if (/\/FlateDecode/.test(m[1])) {
      try {
        body = inflateSync(body);
      } catch {
        continue;
      }
    }
    const text = body.toString('latin1');
    for (const op of text.matchAll(/\[((?:<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      const parts = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>|\(((?:\\.|[^\\)])*)\)/g)] : [[op[0], op[2], op[3]] as unknown as RegExpMatchArray];
      lines.push(
        parts
          .map((p) => (p[1] !== undefined ? Buffer.from(p[1], 'hex').toString('latin1') : (p[2] ?? '').replace(/\\([()\\])/g, '$1')))
          .join(''),
      );
    }
    streamRe.lastIndex = end;
  }
  return lines.join('\n');
}
