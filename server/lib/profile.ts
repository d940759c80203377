/**
 * The member's basic details (/member/account/basic): name and avatar. The avatar goes through the upload
 * pipeline (JPG, PNG or WebP by its bytes), is cropped to the square the member chose and kept as a 512 px
 * WebP without metadata. Avatars are shown to the member's team (genealogy, joinings) by plain <img> tags,
 * so they are served at /media/avatars/<random name>: a name nobody can guess, nothing else readable there.
 */
import { eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { issuesToFieldMap, notFound, validationError } from './errors';
import { rowsOf, type Executor } from './ledger';
import { toUser } from './settings';
import { UPLOAD_POLICIES, deleteUploads, discardFiles, fieldOf, readUploadBytes, sendFile, sniffType, squareImage, storeUploads, type UploadRequest } from './uploads';
import { avatarCropSchema, profileRequestSchema, type Profile, type ProfileRequest } from '../../src/schemas/profile.schema';

export const AVATAR_PATH = '/media/avatars/';

type Services = Pick<AppContext, 'database' | 'config'>;

async function memberRow(db: Executor, id: number): Promise<MemberRow> {
  const [m] = await (db as Db).select().from(members).where(eq(members.id, id)).limit(1);
  if (!m) throw notFound();
  return m;
}

/**
 * GET /api/user/profile: the signed-in member's row as the session read it (kept at most SESSION_CACHE_MS,
 * and dropped in every process on any change of a member row), so the answer costs no query.
 */
export const sessionProfile = (member: MemberRow): Profile => ({ user: toUser(member) });

export async function profileOf(db: Executor, memberId: number): Promise<Profile> {
  return { user: toUser(await memberRow(db, memberId)) };
}

/** PUT /api/user/profile: first name (required) and last name. */
export async function updateProfile(ctx: Services, memberId: number, body: ProfileRequest, ip: string | null): Promise<Profile> {
  const checked = z.safeParse(profileRequestSchema, body);
  if (!checked.success) throw validationError(issuesToFieldMap(checked.error.issues));
  const firstName = checked.data.first_name;
  const lastName = checked.data.last_name?.trim() || null;
  return ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const before = await memberRow(tx, memberId);
    await tx.update(members).set({ firstName, lastName }).where(eq(members.id, memberId));
    if (before.firstName !== firstName || (before.lastName ?? null) !== lastName) {
      await recordAudit(tx, memberId, 'profile.changed', { from: { first_name: before.firstName, last_name: before.lastName }, to: { first_name: firstName, last_name: lastName } }, ip);
    }
    return profileOf(tx, memberId);
  });
}

/** Avatar uploads of the member that are not the current one (left by an earlier change). */
async function formerAvatars(db: Executor, memberId: number, keep: number | null): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(db, sql`SELECT id::int AS id FROM uploads WHERE member_id = ${memberId} AND kind = 'avatar' AND id <> ${keep ?? 0}`);
  return rows.map((r) => r.id);
}

/**
 * POST /api/user/avatar: one image (JPG, PNG or WebP by its bytes) and the square to keep (crop_x, crop_y,
 * crop_size in the upright image's pixels; the centre square when not sent). The previous avatar's file is
 * removed once the new one is in place.
 */
export async function changeAvatar(ctx: Services, memberId: number, upload: UploadRequest, ip: string | null): Promise<Profile> {
  const policy = UPLOAD_POLICIES.avatar;
  const field = fieldOf(policy);
  const errors: Record<string, string[]> = {};
  for (const k of Object.keys(upload.fields)) if (!['crop_x', 'crop_y', 'crop_size'].includes(k)) errors[k] = ['validation:unknownField'];
  const hasCrop = ['crop_x', 'crop_y', 'crop_size'].some((k) => upload.fields[k] !== undefined);
  const crop = hasCrop ? z.safeParse(avatarCropSchema, upload.fields) : null;
  if (crop && !crop.success) Object.assign(errors, issuesToFieldMap(crop.error.issues));
  if (upload.files.length !== 1) errors[field] = ['validation:required'];
  if (Object.keys(errors).length) throw validationError(errors);
  const type = await sniffType(upload.files[0].bytes, policy);
  if (!type) throw validationError({ [field]: ['account:upload.avatarType'] });
  let bytes: Buffer;
  try {
    bytes = await squareImage(upload.files[0].bytes, crop?.success ? { left: crop.data.crop_x, top: crop.data.crop_y, size: crop.data.crop_size } : null);
  } catch {
    throw validationError({ [field]: ['account:upload.fileUnreadable'] });
  }
  const stored: string[] = [];
  const removed: string[] = [];
  try {
    const profile = await ctx.database.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [row] = await storeUploads(tx, ctx.config, memberId, { ...policy, types: ['image/webp'] }, [
        { originalName: 'avatar.webp', contentType: 'image/webp', bytes },
      ]);
      stored.push(row.stored_name);
      await tx.update(members).set({ avatar: AVATAR_PATH + row.stored_name }).where(eq(members.id, memberId));
      removed.push(...(await deleteUploads(tx, memberId, await formerAvatars(tx, memberId, row.id))));
      await recordAudit(tx, memberId, 'avatar.changed', { upload_id: row.id }, ip);
      return profileOf(tx, memberId);
    });
    await discardFiles(ctx.config, removed);
    return profile;
  } catch (e) {
    await discardFiles(ctx.config, stored);
    throw e;
  }
}

/** DELETE /api/user/avatar: back to the initials. */
export async function removeAvatar(ctx: Services, memberId: number, ip: string | null): Promise<Profile> {
  const { profile, removed } = await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx.update(members).set({ avatar: null }).where(eq(members.id, memberId));
    const removed = await deleteUploads(tx, memberId, await formerAvatars(tx, memberId, null));
    await recordAudit(tx, memberId, 'avatar.changed', { removed: true }, ip);
    return { profile: await profileOf(tx, memberId), removed };
  });
  await discardFiles(ctx.config, removed);
  return profile;
}

/** GET /media/avatars/{name}: a current avatar by its stored name (anything else → 404). */
export async function sendAvatar(ctx: Services, reply: Parameters<typeof sendFile>[0], name: string) {
  if (!/^[a-f0-9]{32}\.webp$/.test(name)) throw notFound();
  const [row] = await rowsOf<{ stored_name: string; content_type: 'image/webp'; original_name: string }>(
    ctx.database.db,
    sql`SELECT u.stored_name, u.content_type, u.original_name FROM uploads u
        WHERE u.stored_name = ${name} AND u.kind = 'avatar'
          AND EXISTS (SELECT 1 FROM members m WHERE m.id = u.member_id AND m.avatar = ${AVATAR_PATH} || u.stored_name)`,
  );
  if (!row) throw notFound();
  const bytes = await readUploadBytes(ctx.config, row);
  return sendFile(reply, row, bytes, 'inline', 'public, max-age=31536000, immutable');
}
