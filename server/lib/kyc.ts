/**
 * Identity verification (spec §2 /member/kyc, §3, §5, §7): a member sends documents of a category (with the
 * document's number when the company asks for it); staff approve or reject them with a reason; a rejected
 * member sends again. `member_kyc` keeps the member's resulting status — the one payouts and referrals
 * read — and changes in the same transaction as the documents, with an audit row for every change.
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { HttpError, issuesToFieldMap, notFound, validationError } from './errors';
import { rowsOf, type Executor } from './ledger';
import { announce } from './member-notices';
import { UPLOAD_POLICIES, deleteUploads, discardFiles, fieldOf, inspectFile, storeUploads, type CheckedFile, type UploadRequest } from './uploads';
import {
  kycCanSubmit,
  kycFieldsSchema,
  type KycCategory,
  type KycDetails,
  type KycDocument,
  type KycStatus,
} from '../../src/schemas/kyc.schema';

export interface KycSettings {
  attachments_limit: number;
  id_number_required: boolean;
  id_number_label: string;
}

const DEFAULT_SETTINGS: KycSettings = { attachments_limit: 3, id_number_required: true, id_number_label: 'Document number' };

export async function kycSettings(db: Executor): Promise<KycSettings> {
  const [r] = await rowsOf<{ value: Partial<KycSettings> }>(db, sql`SELECT value FROM settings WHERE key = 'kyc'`);
  return { ...DEFAULT_SETTINGS, ...(r?.value ?? {}) };
}

export async function kycCategories(db: Executor): Promise<KycCategory[]> {
  return rowsOf<KycCategory>(db, sql`SELECT id, name FROM kyc_categories WHERE active ORDER BY sort_order, id`);
}

export async function memberKycStatus(db: Executor, memberId: number): Promise<KycStatus> {
  const [r] = await rowsOf<{ status: KycStatus }>(db, sql`SELECT status FROM member_kyc WHERE member_id = ${memberId}`);
  return r?.status ?? 'not_submitted';
}

/** Set the status payouts read (member_kyc) to what the member's documents say now. */
async function syncStatus(db: Executor, memberId: number): Promise<KycStatus> {
  const [latest] = await rowsOf<{ status: KycStatus }>(
    db,
    sql`SELECT status FROM kyc_documents WHERE member_id = ${memberId} ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const [approved] = await rowsOf<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM kyc_documents WHERE member_id = ${memberId} AND status = 'approved'`);
  // Once approved a member stays approved; otherwise the latest document decides.
  const status: KycStatus = Number(approved?.n ?? 0) > 0 ? 'approved' : (latest?.status ?? 'not_submitted');
  await db.execute(
    sql`INSERT INTO member_kyc (member_id, status, updated_at) VALUES (${memberId}, ${status}, now())
        ON CONFLICT (member_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
  );
  return status;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

interface DocumentRow {
  id: number;
  member_id: number;
  status: KycDocument['status'];
  category_name: string;
  id_number: string | null;
  reason: string | null;
  created_at: string | Date;
  decided_at: string | Date | null;
}

const DOCUMENT_COLUMNS = sql`d.id::int AS id, d.member_id, d.status, c.name AS category_name, d.id_number, d.reason, d.created_at, d.decided_at`;

/** Documents with their files; `where` limits them (always to one member for a member's calls). */
async function documentsWhere(db: Executor, where: ReturnType<typeof sql>, limit = 200): Promise<(KycDocument & { member_id: number })[]> {
  const docs = await rowsOf<DocumentRow>(
    db,
    sql`SELECT ${DOCUMENT_COLUMNS} FROM kyc_documents d JOIN kyc_categories c ON c.id = d.category_id
        WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`,
  );
  if (!docs.length) return [];
  const files = await rowsOf<{ document_id: number; id: number; name: string; content_type: string; size: number }>(
    db,
    sql`SELECT f.document_id::int AS document_id, u.id::int AS id, u.original_name AS name, u.content_type, u.size_bytes AS size
        FROM kyc_document_files f JOIN uploads u ON u.id = f.upload_id
        WHERE f.document_id IN (${sql.join(docs.map((d) => sql`${d.id}`), sql`, `)}) ORDER BY f.document_id, f.position`,
  );
  return docs.map((d) => ({
    id: d.id,
    member_id: d.member_id,
    status: d.status,
    category_name: d.category_name,
    created_at: iso(d.created_at)!,
    id_number: d.id_number,
    reason: d.reason,
    decided_at: iso(d.decided_at),
    documents: files
      .filter((f) => f.document_id === d.id)
      .map((f) => ({ id: f.id, name: f.name, content_type: f.content_type, size: Number(f.size), url: `/api/uploads/${f.id}` })),
  }));
}

/** GET /api/kyc/kyc_details: the caller's documents, newest first. */
export async function kycHistory(db: Executor, memberId: number): Promise<KycDocument[]> {
  return (await documentsWhere(db, sql`d.member_id = ${memberId}`)).map(({ member_id: _m, ...d }) => d);
}

/** GET /api/kyc: everything the KYC page shows. */
export async function kycDetails(db: Executor, memberId: number): Promise<KycDetails> {
  const [settings, status, history, categories] = await Promise.all([kycSettings(db), memberKycStatus(db, memberId), kycHistory(db, memberId), kycCategories(db)]);
  return { status, history, categories, ...settings };
}

/**
 * POST /api/kyc: spec §5 — a category (one of the company's), the number when required (and sent only
 * when given), 1 to attachments_limit files each a JPG, PNG or PDF (by its bytes) of at most 10 MB. Refused
 * while a document waits for review or once the member is approved. Every problem of the text fields is
 * answered at once; the files are checked only when the fields are right.
 */
export async function submitKyc(ctx: Pick<AppContext, 'database' | 'config'>, memberId: number, upload: UploadRequest, ip: string | null): Promise<KycDocument> {
  const db = ctx.database.db;
  const policy = UPLOAD_POLICIES.kyc;
  const field = fieldOf(policy);
  const settings = await kycSettings(db);
  const errors: Record<string, string[]> = {};
  const unknown = Object.keys(upload.fields).filter((k) => k !== 'category' && k !== 'id_number');
  for (const k of unknown) errors[k] = ['validation:unknownField'];
  const parsed = z.safeParse(kycFieldsSchema, { category: upload.fields.category ?? '', id_number: upload.fields.id_number });
  if (!parsed.success) Object.assign(errors, issuesToFieldMap(parsed.error.issues));
  if (!upload.fields.category?.trim()) errors.category = ['validation:required'];
  const idNumber = parsed.success ? parsed.data.id_number?.trim() || null : null;
  if (settings.id_number_required && !idNumber && !errors.id_number) errors.id_number = ['validation:required'];
  if (parsed.success && !errors.category) {
    const [c] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM kyc_categories WHERE id = ${parsed.data.category} AND active`);
    if (!c) errors.category = ['validation:invalidChoice'];
  }
  if (upload.files.length === 0) errors[field] = ['account:kyc.errors.documentsRequired'];
  else if (upload.files.length > settings.attachments_limit) throw new HttpError(413, 'validation_error', 'Too many files.', { [field]: ['account:upload.tooManyFiles'] });
  const status = await memberKycStatus(db, memberId);
  if (!kycCanSubmit(status)) errors._body = [status === 'pending' ? 'account:kyc.errors.pending' : 'account:kyc.errors.approved'];
  if (Object.keys(errors).length) throw validationError(errors);

  const checked: CheckedFile[] = [];
  for (const f of upload.files) checked.push(await inspectFile(f, policy));

  const stored: string[] = [];
  try {
    const id = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // One submission at a time per member: the status is read again under the lock.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${7_002}, ${memberId})`);
      const now = await memberKycStatus(tx, memberId);
      if (!kycCanSubmit(now)) throw validationError({ _body: [now === 'pending' ? 'account:kyc.errors.pending' : 'account:kyc.errors.approved'] });
      const rows = await storeUploads(tx, ctx.config, memberId, policy, checked);
      stored.push(...rows.map((r) => r.stored_name));
      const [doc] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO kyc_documents (member_id, category_id, id_number, status) VALUES (${memberId}, ${parsed.data!.category}, ${idNumber}, 'pending') RETURNING id::int AS id`,
      );
      for (const [i, r] of rows.entries()) {
        await tx.execute(sql`INSERT INTO kyc_document_files (document_id, upload_id, position) VALUES (${doc.id}, ${r.id}, ${i})`);
      }
      await syncStatus(tx, memberId);
      await recordAudit(tx, memberId, 'kyc.submitted', { document_id: doc.id, category_id: parsed.data!.category, files: rows.length }, ip);
      return doc.id;
    });
    const [doc] = await documentsWhere(db, sql`d.id = ${id} AND d.member_id = ${memberId}`, 1);
    const { member_id: _m, ...out } = doc;
    return out;
  } catch (e) {
    await discardFiles(ctx.config, stored);
    throw e;
  }
}

/** DELETE /referrals/delete_kyc/{id}: the caller's own pending document only (anything else → 404). */
export async function deleteKyc(ctx: Pick<AppContext, 'database' | 'config'>, memberId: number, id: number, ip: string | null): Promise<void> {
  const removed = await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [doc] = await rowsOf<{ id: number }>(
      tx,
      sql`SELECT id::int AS id FROM kyc_documents WHERE id = ${id} AND member_id = ${memberId} AND status = 'pending' FOR UPDATE`,
    );
    if (!doc) throw notFound();
    const files = await rowsOf<{ upload_id: number }>(tx, sql`SELECT upload_id::int AS upload_id FROM kyc_document_files WHERE document_id = ${id}`);
    await tx.execute(sql`DELETE FROM kyc_document_files WHERE document_id = ${id}`);
    await tx.execute(sql`DELETE FROM kyc_documents WHERE id = ${id}`);
    const names = await deleteUploads(tx, memberId, files.map((f) => f.upload_id));
    await syncStatus(tx, memberId);
    await recordAudit(tx, memberId, 'kyc.deleted', { document_id: id, files: names.length }, ip);
    return names;
  });
  await discardFiles(ctx.config, removed);
}

// ── What staff do (operator commands) ──────────────────────────────────────────────────────────────────

export interface PendingKyc {
  id: number;
  member_id: number;
  username: string;
  category_name: string;
  id_number: string | null;
  files: number;
  created_at: string;
}

/** Documents waiting for review, oldest first. */
export async function pendingKyc(db: Executor, limit = 100, username?: string): Promise<PendingKyc[]> {
  const rows = await rowsOf<Omit<PendingKyc, 'created_at'> & { created_at: string | Date }>(
    db,
    sql`SELECT d.id::int AS id, d.member_id, m.username, c.name AS category_name, d.id_number,
          (SELECT count(*)::int FROM kyc_document_files f WHERE f.document_id = d.id) AS files, d.created_at
        FROM kyc_documents d JOIN members m ON m.id = d.member_id JOIN kyc_categories c ON c.id = d.category_id
        WHERE d.status = 'pending' ${username ? sql`AND m.username = ${username}` : sql``} ORDER BY d.created_at, d.id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, created_at: iso(r.created_at)! }));
}

export type KycDecision = { approve: true } | { approve: false; reason: string };

/**
 * Approve or reject a pending document (a rejection needs its reason, which the member reads). The
 * member's status follows, and the member is told (kyc_decision). Answers the member's new status.
 */
export async function decideKyc(ctx: Pick<AppContext, 'database' | 'outbox'> & { config?: Config }, id: number, decision: KycDecision): Promise<{ memberId: number; status: KycStatus }> {
  const reason = decision.approve ? null : decision.reason.trim();
  if (!decision.approve && !reason) throw validationError({ reason: ['validation:required'] });
  if (reason && reason.length > 500) throw validationError({ reason: ['validation:tooLong'] });
  const result = await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [doc] = await rowsOf<{ member_id: number; status: string }>(tx, sql`SELECT member_id, status FROM kyc_documents WHERE id = ${id} FOR UPDATE`);
    if (!doc) throw notFound('No such KYC document');
    if (doc.status !== 'pending') throw new HttpError(409, 'conflict', `KYC document ${id} is already ${doc.status}`);
    await tx.execute(
      sql`UPDATE kyc_documents SET status = ${decision.approve ? 'approved' : 'rejected'}, reason = ${reason}, decided_at = now() WHERE id = ${id}`,
    );
    const status = await syncStatus(tx, doc.member_id);
    await recordAudit(tx, doc.member_id, decision.approve ? 'kyc.approved' : 'kyc.rejected', { document_id: id, ...(reason ? { reason } : {}) }, null);
    return { memberId: doc.member_id, status };
  });
  await announce(ctx, result.memberId, 'kyc_decision', {
    key: decision.approve ? 'kyc_approved' : 'kyc_rejected',
    values: { reason: reason ?? '' },
    link: '/member/kyc',
  });
  return result;
}
