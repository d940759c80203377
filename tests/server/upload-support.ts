/** Files and multipart requests for the upload tests: real images (with EXIF), a real PDF, impostors. */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { apiHeaders } from '../support/server';
import type { Answer } from './helpers';

/** A small PNG (or JPEG) whose metadata names a camera owner and a GPS position. */
export async function photo(format: 'png' | 'jpeg' = 'png', width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 120, b: 200 } } })
    .withExif({ IFD0: { Artist: 'Secret Owner', Copyright: 'private-exif-marker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1' } })
    [format]()
    .toBuffer();
}

/** A one-page PDF. */
export function pdf(): Buffer {
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n');
  return Buffer.from(body, 'latin1');
}

export interface Part {
  field: string;
  /** A file part when given. */
  filename?: string;
  type?: string;
  value: string | Buffer;
}

/** POST `parts` as multipart/form-data (as a browser would build it). */
export async function postMultipart<T = any>(app: FastifyInstance, url: string, parts: Part[], token?: string): Promise<Answer<T>> {
  const form = new FormData();
  for (const p of parts) {
    if (p.filename !== undefined) form.append(p.field, new Blob([new Uint8Array(p.value as Buffer)], { type: p.type ?? 'application/octet-stream' }), p.filename);
    else form.append(p.field, String(p.value));
  }
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  const payload = Buffer.from(await req.arrayBuffer());
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { ...apiHeaders(token), 'content-type': req.headers.get('content-type')! },
    payload,
    remoteAddress: '127.0.0.1',
  });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body: body as T, headers: res.headers as Record<string, unknown> };
}

export const file = (field: string, filename: string, value: Buffer, type = 'application/octet-stream'): Part => ({ field, filename, value, type });
export const text = (field: string, value: string): Part => ({ field, value });
