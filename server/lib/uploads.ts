/**
 * The upload pipeline every area that takes files uses (identity documents, avatars; later mail and
 * support attachments):
 *
 * 1. `readUploadRequest(req, policy)` reads a multipart request under the policy's limits (size per file,
 *    number of files): too large or too many → 413 with a field map naming the file field.
 * 2. `inspectFile(file, policy)` decides the type from the file's bytes (file-type), never from its name or
 *    the MIME header the browser sent: a type the policy does not allow → 422 on the field.
 * 3. Images are decoded and re-encoded (sharp): EXIF, GPS and every other metadata block is gone, and a
 *    file that only claims to be an image fails here. PDFs are kept as they are.
 * 4. `storeUpload(tx, …)` checks the member's quota (→ 413) and writes the bytes under a random name chosen
 *    by the server in the uploads folder (outside every served folder), with an `uploads` row: owner, kind,
 *    size, type, the original name sanitised.
 * 5. `sendOwnUpload(reply, …)` answers a file to its owner only (anyone else: 404), as an attachment with a
 *    safe Content-Disposition and `X-Content-Type-Options: nosniff`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Config } from '../config';
import { requireAuth, protectedAction } from './auth';
import { HttpError, notFound, validationError } from './errors';
import { rowsOf, type Executor } from './ledger';

export type UploadKind = 'kyc' | 'avatar' | 'mail' | 'support' | 'receipt';
export type AllowedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

/** What one use of the pipeline accepts. */
export interface UploadPolicy {
  kind: UploadKind;
  /** The multipart field the files come under (`documents[]`); its field errors use the name without []. */
  field: string;
  types: readonly AllowedType[];
  maxBytes: number;
  maxFiles: number;
  /** Largest text field in bytes (default 4096); a longer value is cut there, so its schema must refuse that length. */
  fieldSize?: number;
}

export const MB = 1024 * 1024;

export const UPLOAD_POLICIES = {
  /** Identity documents: JPG, PNG or PDF up to 10 MB each (the count comes from the KYC settings). */
  kyc: { kind: 'kyc', field: 'documents[]', types: ['image/jpeg', 'image/png', 'application/pdf'], maxBytes: 10 * MB, maxFiles: 10 },
  /** The member's picture: one JPG, PNG or WebP image up to 10 MB, stored as a square WebP. */
  avatar: { kind: 'avatar', field: 'avatar', types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 10 * MB, maxFiles: 1 },
  /** The receipt of an over-the-counter payment: one JPG, PNG or PDF up to 5 MB. */
  receipt: { kind: 'receipt', field: 'receipt', types: ['image/jpeg', 'image/png', 'application/pdf'], maxBytes: 5 * MB, maxFiles: 1 },
} as const satisfies Record<string, UploadPolicy>;

/** The field name of the policy's field map entries (`documents[]` → `documents`). */
export const fieldOf = (policy: Pick<UploadPolicy, 'field'>) => policy.field.replace(/\[\]$/, '');

/** Largest image accepted, in pixels (a small file that decodes into gigabytes is refused). */
const MAX_PIXELS = 40_000_000;

export interface IncomingFile {
  /** As the member named it (unsafe: only ever shown sanitised). */
  filename: string;
  bytes: Buffer;
}

export interface UploadRequest {
  files: IncomingFile[];
  fields: Record<string, string>;
}

const tooLarge = (policy: UploadPolicy, key: string) =>
  new HttpError(413, 'validation_error', 'The upload is too large.', { [fieldOf(policy)]: [key] });

/**
 * The files (under `policy.field`) and text fields of a multipart request. More files than `maxFiles`, or a
 * file over `maxBytes`, is refused (413) before the rest is read; a file under any other field is refused too.
 */
export async function readUploadRequest(req: FastifyRequest, policy: UploadPolicy, maxFiles = policy.maxFiles): Promise<UploadRequest> {
  if (!req.isMultipart()) throw validationError({ [fieldOf(policy)]: ['account:upload.required'] }, 'Send the files as multipart/form-data.');
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = Object.create(null);
  try {
    const parts = req.parts({ limits: { fileSize: policy.maxBytes, files: maxFiles, fields: 20, fieldSize: policy.fieldSize ?? 4096, parts: maxFiles + 20 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== policy.field && part.fieldname !== fieldOf(policy)) {
          part.file.resume();
          throw validationError({ [part.fieldname]: ['validation:unknownField'] });
        }
        files.push({ filename: part.filename ?? '', bytes: await part.toBuffer() });
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(policy, 'account:upload.fileTooLarge');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw tooLarge(policy, 'account:upload.tooManyFiles');
    if (code === 'FST_FIELDS_LIMIT') throw validationError({ _body: ['validation:malformedBody'] });
    if (e instanceof HttpError) throw e;
    // Only the request's bytes are read here: anything else that fails is a body that is not well-formed multipart.
    throw new HttpError(400, 'validation_error', 'Malformed multipart body', { _body: ['validation:malformedBody'] });
  }
  return { files, fields };
}

/** A file as it will be kept: the type read from its bytes, images re-encoded without metadata. */
export interface CheckedFile {
  originalName: string;
  contentType: AllowedType;
  bytes: Buffer;
}

/** The type of `bytes` as their content says, or null when it is none the policy allows. */
export async function sniffType(bytes: Buffer, policy: Pick<UploadPolicy, 'types'>): Promise<AllowedType | null> {
  const found = await fileTypeFromBuffer(bytes);
  const mime = found?.mime as AllowedType | undefined;
  return mime && policy.types.includes(mime) ? mime : null;
}

/** Re-encode an image in its own format: orientation applied, every metadata block (EXIF, GPS, XMP) dropped. */
async function reencode(bytes: Buffer, type: AllowedType): Promise<Buffer> {
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS }).autoOrient();
  if (type === 'image/jpeg') return image.jpeg({ quality: 88, mozjpeg: true }).toBuffer();
  if (type === 'image/png') return image.png({ compressionLevel: 9 }).toBuffer();
  return image.webp({ quality: 88 }).toBuffer();
}

/** A name safe to show and to put in a header: no path, no control or quote characters, at most 120 characters. */
export function sanitiseFileName(name: string, fallback = 'file'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f"<>:*?|;`$%\\]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(-120);
  return clean || fallback;
}

const EXTENSION: Record<AllowedType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' };

/** The original name with the extension of the type found in the bytes (`scan.png` that is a PDF → `scan.pdf`). */
function nameFor(original: string, type: AllowedType): string {
  const safe = sanitiseFileName(original);
  const stem = safe.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'file';
  return `${stem}.${EXTENSION[type]}`;
}

/**
 * Check one incoming file: its type by its bytes (a text file named .png, a PDF named .jpg where PDFs are not
 * allowed → 422 `account:upload.fileType`), images re-encoded without metadata (an image that does not decode →
 * 422 `account:upload.fileUnreadable`).
 */
export async function inspectFile(file: IncomingFile, policy: UploadPolicy): Promise<CheckedFile> {
  const field = fieldOf(policy);
  if (file.bytes.length === 0) throw validationError({ [field]: ['account:upload.fileEmpty'] });
  const type = await sniffType(file.bytes, policy);
  if (!type) throw validationError({ [field]: ['account:upload.fileType'] });
  let bytes = file.bytes;
  if (type !== 'application/pdf') {
    try {
      bytes = await reencode(file.bytes, type);
    } catch {
      throw validationError({ [field]: ['account:upload.fileUnreadable'] });
    }
  }
  return { originalName: nameFor(file.filename, type), contentType: type, bytes };
}

/** Crop a square out of an image (`box` in the pixels of the upright image), scaled to `size`, as WebP without metadata. */
export async function squareImage(bytes: Buffer, box: { left: number; top: number; size: number } | null, size = 512): Promise<Buffer> {
  const upright = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS }).autoOrient();
  const { data, info } = await upright.toBuffer({ resolveWithObject: true });
  const side = Math.min(info.width, info.height);
  const crop = box
    ? (() => {
        const s = Math.max(1, Math.min(Math.round(box.size), side));
        const left = Math.max(0, Math.min(Math.round(box.left), info.width - s));
        const top = Math.max(0, Math.min(Math.round(box.top), info.height - s));
        return { left, top, width: s, height: s };
      })()
    : { left: Math.floor((info.width - side) / 2), top: Math.floor((info.height - side) / 2), width: side, height: side };
  return sharp(data, { limitInputPixels: MAX_PIXELS }).extract(crop).resize(size, size).webp({ quality: 86 }).toBuffer();
}

// ── Storage ──────────────────────────────────────────────────────────────────────────────────────────────

const temporary = new WeakMap<Config, string>();

/** The uploads folder of this server: the configured one, or a temporary folder of its own (tests). */
export function uploadsRoot(config: Config): string {
  if (config.uploadsDir) {
    mkdirSync(config.uploadsDir, { recursive: true, mode: 0o700 });
    return config.uploadsDir;
  }
  let dir = temporary.get(config);
  if (!dir) temporary.set(config, (dir = mkdtempSync(path.join(tmpdir(), 'upline-uploads-'))));
  return dir;
}

/** A stored file's path: only ever from a name the server chose (hex), never from anything a caller sent. */
function storedPath(config: Config, storedName: string): string {
  if (!/^[a-f0-9]{32}\.[a-z]{3,4}$/.test(storedName)) throw new Error('not a stored name');
  return path.join(uploadsRoot(config), storedName);
}

export interface UploadRow {
  id: number;
  member_id: number;
  kind: UploadKind;
  stored_name: string;
  original_name: string;
  content_type: AllowedType;
  size_bytes: number;
  created_at: string | Date;
}

/** Bytes the member's uploads take. */
export async function usedBytes(db: Executor, memberId: number): Promise<number> {
  const [r] = await rowsOf<{ used: string | number | null }>(db, sql`SELECT coalesce(sum(size_bytes), 0)::bigint AS used FROM uploads WHERE member_id = ${memberId}`);
  return Number(r?.used ?? 0);
}

/**
 * Keep checked files for a member: the quota first (everything the member keeps plus these → 413
 * `account:upload.quotaExceeded`), then the bytes under new random names and one row each. Call it inside the
 * transaction of the record the files belong to; `discardFiles` removes the bytes when that fails.
 */
export async function storeUploads(db: Executor, config: Config, memberId: number, policy: UploadPolicy, files: CheckedFile[]): Promise<UploadRow[]> {
  const adding = files.reduce((n, f) => n + f.bytes.length, 0);
  // One member's uploads are counted one request at a time (two requests at once cannot both pass the quota).
  await db.execute(sql`SELECT pg_advisory_xact_lock(${7_001}, ${memberId})`);
  if ((await usedBytes(db, memberId)) + adding > config.uploadQuotaBytes) throw tooLarge(policy, 'account:upload.quotaExceeded');
  const out: UploadRow[] = [];
  for (const f of files) {
    const storedName = `${randomBytes(16).toString('hex')}.${EXTENSION[f.contentType]}`;
    await writeFile(storedPath(config, storedName), f.bytes, { mode: 0o600, flag: 'wx' });
    const [row] = await rowsOf<UploadRow>(
      db,
      sql`INSERT INTO uploads (member_id, kind, stored_name, original_name, content_type, size_bytes)
          VALUES (${memberId}, ${policy.kind}, ${storedName}, ${f.originalName}, ${f.contentType}, ${f.bytes.length})
          RETURNING id::int AS id, member_id, kind, stored_name, original_name, content_type, size_bytes, created_at`,
    );
    out.push(row);
  }
  return out;
}

/** Remove the bytes of uploads (after their rows are gone, or when the transaction that stored them failed). */
export async function discardFiles(config: Config, storedNames: string[]): Promise<void> {
  await Promise.all(storedNames.map((n) => rm(storedPath(config, n), { force: true })));
}

/** Delete upload rows of a member (in the caller's transaction); answers their stored names for `discardFiles`. */
export async function deleteUploads(db: Executor, memberId: number, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await rowsOf<{ stored_name: string }>(
    db,
    sql`DELETE FROM uploads WHERE member_id = ${memberId} AND id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) RETURNING stored_name`,
  );
  return rows.map((r) => r.stored_name);
}

/** A member's own upload, or 404 (another member's id reads exactly like one that does not exist). */
export async function ownUpload(db: Executor, memberId: number, id: number, kind?: UploadKind): Promise<UploadRow> {
  const [row] = await rowsOf<UploadRow>(
    db,
    sql`SELECT id::int AS id, member_id, kind, stored_name, original_name, content_type, size_bytes, created_at
        FROM uploads WHERE id = ${id} AND member_id = ${memberId} ${kind ? sql`AND kind = ${kind}` : sql``}`,
  );
  if (!row) throw notFound();
  return row;
}

export async function readUploadBytes(config: Config, row: Pick<UploadRow, 'stored_name'>): Promise<Buffer> {
  try {
    return await readFile(storedPath(config, row.stored_name));
  } catch {
    throw notFound();
  }
}

/** `attachment; filename="scan.pdf"; filename*=UTF-8''scan.pdf` — quotes and non-ASCII cannot break out. */
export function contentDisposition(name: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const safe = sanitiseFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

/** Answer a stored file with headers that keep a browser from running it as anything else. */
export function sendFile(
  reply: FastifyReply,
  row: Pick<UploadRow, 'content_type' | 'original_name'>,
  bytes: Buffer,
  disposition: 'attachment' | 'inline' = 'attachment',
  cache = 'private, no-store',
) {
  return reply
    .type(row.content_type)
    .header('Content-Disposition', contentDisposition(row.original_name, disposition))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('Cache-Control', cache)
    .send(bytes);
}

/** Answer the caller's own upload `id` (any other id → 404). */
export async function sendOwnUpload(reply: FastifyReply, db: Executor, config: Config, memberId: number, id: number) {
  const row = await ownUpload(db, memberId, id);
  return sendFile(reply, row, await readUploadBytes(config, row));
}

/** What a route that takes files declares: its path, OpenAPI tags and description, answers, and rate limit. */
export interface UploadRouteSpec {
  path: string;
  tags: string[];
  description: string;
  response: Record<number, unknown>;
  /** The route's `config` (e.g. its rate limit from routeLimits). */
  config: Record<string, unknown>;
}

/**
 * Register a POST that takes files, for signed-in members and not in demo mode: it gets a scope of its own
 * with @fastify/multipart (the handler reads the request with `readUploadRequest` under its use's policy;
 * these are only the outer bounds of any request).
 */
export async function uploadRoute(
  app: FastifyInstance,
  isDemo: () => boolean,
  spec: UploadRouteSpec,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): Promise<void> {
  await app.register(async (scoped) => {
    await scoped.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: 10 * MB, files: 10, fields: 20, fieldSize: 4096, parts: 40, headerPairs: 100 },
    });
    scoped.post(
      spec.path,
      {
        preValidation: [requireAuth, protectedAction(isDemo)],
        config: spec.config,
        schema: { tags: spec.tags, consumes: ['multipart/form-data'], description: spec.description, response: spec.response },
      },
      handler,
    );
  });
}
