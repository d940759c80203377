/**
 * A member's own e-mail address and mobile number (spec §2 Account settings: email, phone). A change is
 * asked for with the account password; a one-time code goes to the NEW address or number and the change
 * waits in `contact_changes` until that code is entered. Only then does the member's row change, and the
 * OLD address or number is told of it. Every request and change leaves an audit row. Only ever about the
 * caller: the member comes from the bearer token, never from the body.
 */
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import { contactChanges, type ContactChangeRow } from '../db/schema-contact';
import type { ContactDetails, ContactVerifyRequest, EmailChangeRequest, PhoneChangeRequest } from '../../src/schemas/contact.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { verifyPassword } from './crypto';
import { validationError, type FieldMap } from './errors';
import { companyName } from './login';
import { maskDestination, maskMobile, normalizeEmail, normalizePhoneCode } from './members';
import { issueOtp, OTP_TTL_SECONDS, verifyOtp, type OtpPurpose, type OtpSentAnswer } from './otp';

type Services = Pick<AppContext, 'database' | 'settings' | 'outbox'>;
export type ContactKind = 'email' | 'phone';

/** How long a request (re-authenticated with the password) stays open for its code: three codes' lifetimes. */
export const PENDING_CHANGE_SECONDS = OTP_TTL_SECONDS * 3;

const PURPOSE: Record<ContactKind, OtpPurpose> = { email: 'email_change', phone: 'phone_change' };
/** A code is kept per member and new address: one member's request never touches another's code. */
const codeKey = (memberId: number, address: string) => `member:${memberId}:${address}`;
const addressOf = (c: Pick<ContactChangeRow, 'kind' | 'email' | 'mobileCode' | 'mobile'>) =>
  c.kind === 'email' ? (c.email ?? '') : `${c.mobileCode ?? ''}${c.mobile ?? ''}`;

export const contactDetails = (m: MemberRow): ContactDetails => ({ email: m.email, mobile_code: m.mobileCode, mobile: m.mobile });

/** The member's pending change of this kind, if its time is not over. */
async function pendingChange(db: Db, memberId: number, kind: ContactKind): Promise<ContactChangeRow | null> {
  const [row] = await db
    .select()
    .from(contactChanges)
    .where(
      and(
        eq(contactChanges.memberId, memberId),
        eq(contactChanges.kind, kind),
        isNull(contactChanges.appliedAt),
        isNull(contactChanges.supersededAt),
        gt(contactChanges.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(contactChanges.createdAt), desc(contactChanges.id))
    .limit(1);
  return row ?? null;
}

/** Another member already uses this address (e-mail: always, the database keeps them unique) or number (when the company says so). */
async function takenBy(db: Db, memberId: number, change: Pick<ContactChangeRow, 'kind' | 'email' | 'mobileCode' | 'mobile'>, phoneUnique: boolean): Promise<boolean> {
  if (change.kind === 'email') {
    const [hit] = await db.select({ id: members.id }).from(members).where(and(sql`lower(${members.email}) = ${change.email}`, ne(members.id, memberId))).limit(1);
    return !!hit;
  }
  if (!phoneUnique) return false;
  const [hit] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.mobileCode, change.mobileCode!), eq(members.mobile, change.mobile!), ne(members.id, memberId)))
    .limit(1);
  return !!hit;
}

const takenKey: Record<ContactKind, [field: string, key: string]> = {
  email: ['email', 'validation:emailTaken'],
  phone: ['mobile', 'validation:phoneTaken'],
};

/** Send the code of a pending change to its new address or number. */
async function sendChangeCode(ctx: Services, member: MemberRow, change: Pick<ContactChangeRow, 'kind' | 'email' | 'mobileCode' | 'mobile'>): Promise<OtpSentAnswer> {
  const address = addressOf(change);
  return issueOtp(ctx.database.db, ctx.outbox, {
    purpose: PURPOSE[change.kind],
    channel: change.kind === 'email' ? 'email' : 'sms',
    destination: codeKey(member.id, address),
    sendTo: address,
    memberId: member.id,
    deliver: true,
    companyName: await companyName(ctx),
    display: change.kind === 'email' ? maskDestination('email', address) : maskMobile(change.mobileCode!, change.mobile!),
  });
}

/**
 * Ask for a change: the account password must be right, the new address or number new to the member and
 * not another member's (one field map for all of it). The code goes to the new one; the pending change
 * replaces any earlier one of the same kind (asking again for the same one only sends a new code).
 */
async function requestChange(ctx: Services, member: MemberRow, password: string, change: Pick<ContactChangeRow, 'kind' | 'email' | 'mobileCode' | 'mobile'>, ip: string | null) {
  const db = ctx.database.db;
  const auth = await ctx.settings.get('auth');
  const errors: FieldMap = {};
  const [field, taken] = takenKey[change.kind];
  const current = change.kind === 'email' ? normalizeEmail(member.email ?? '') : `${member.mobileCode ?? ''}${member.mobile ?? ''}`;
  if (addressOf(change) === current) errors[field] = [`account:${change.kind}.errors.sameAsCurrent`];
  else if (await takenBy(db, member.id, change, auth.phone_unique)) errors[field] = [taken];
  if (!(await verifyPassword(password, member.passwordHash))) errors.password = ['validation:invalidPassword'];
  if (Object.keys(errors).length) throw validationError(errors);

  // The code first: within the resend delay it answers 429 and nothing changes.
  const sent = await sendChangeCode(ctx, member, change);
  // The same request again (a resend from the form) keeps the pending change: only a new code went out.
  const pending = await pendingChange(db, member.id, change.kind);
  if (pending && addressOf(pending) === addressOf(change)) return sent;
  await db.transaction(async (tx) => {
    await tx
      .update(contactChanges)
      .set({ supersededAt: new Date() })
      .where(and(eq(contactChanges.memberId, member.id), eq(contactChanges.kind, change.kind), isNull(contactChanges.appliedAt), isNull(contactChanges.supersededAt)));
    await tx.insert(contactChanges).values({ memberId: member.id, ...change, expiresAt: new Date(Date.now() + PENDING_CHANGE_SECONDS * 1000) });
    await recordAudit(tx, member.id, `${change.kind}.change_requested`, change.kind === 'email' ? { old_email: member.email, new_email: change.email } : phoneDetail(member, change), ip);
  });
  return sent;
}

const phoneDetail = (member: MemberRow, change: Pick<ContactChangeRow, 'mobileCode' | 'mobile'>) => ({
  old_mobile: member.mobile ? `${member.mobileCode ?? ''} ${member.mobile}` : null,
  new_mobile: `${change.mobileCode} ${change.mobile}`,
});

export const requestEmailChange = (ctx: Services, member: MemberRow, body: EmailChangeRequest, ip: string | null) =>
  requestChange(ctx, member, body.password, { kind: 'email', email: normalizeEmail(body.email), mobileCode: null, mobile: null }, ip);

export const requestPhoneChange = (ctx: Services, member: MemberRow, body: PhoneChangeRequest, ip: string | null) =>
  requestChange(ctx, member, body.password, { kind: 'phone', email: null, mobileCode: normalizePhoneCode(body.mobile_code), mobile: body.mobile.trim() }, ip);

/** The pending change's time is over (or there is none): its code can no longer be used. */
const noPending = () => validationError({ otp: ['validation:otpExpired'] });

/** A new code for the pending change (the password was re-entered when it was asked for). */
export async function resendChangeCode(ctx: Services, member: MemberRow, kind: ContactKind): Promise<OtpSentAnswer> {
  const pending = await pendingChange(ctx.database.db, member.id, kind);
  if (!pending) throw noPending();
  return sendChangeCode(ctx, member, pending);
}

/**
 * Apply the pending change with its code (single use, expiring, five tries): the member's row changes,
 * the old address or number is told, and the change is audited — all or nothing.
 */
export async function verifyChange(ctx: Services, member: MemberRow, kind: ContactKind, body: ContactVerifyRequest, ip: string | null): Promise<ContactDetails> {
  const db = ctx.database.db;
  const pending = await pendingChange(db, member.id, kind);
  if (!pending) throw noPending();
  await verifyOtp(db, { purpose: PURPOSE[kind], destination: codeKey(member.id, addressOf(pending)), code: body.otp, consume: true });
  const auth = await ctx.settings.get('auth');
  const updated = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // Taken while the code was on its way: the change cannot apply.
    if (await takenBy(t, member.id, pending, auth.phone_unique)) {
      const [field, key] = takenKey[kind];
      throw validationError({ [field]: [key] });
    }
    const [row] = await tx
      .update(members)
      .set(kind === 'email' ? { email: pending.email } : { mobileCode: pending.mobileCode, mobile: pending.mobile })
      .where(eq(members.id, member.id))
      .returning();
    await tx.update(contactChanges).set({ appliedAt: new Date() }).where(eq(contactChanges.id, pending.id));
    await recordAudit(tx, member.id, `${kind}.changed`, kind === 'email' ? { old_email: member.email, new_email: pending.email } : phoneDetail(member, pending), ip);
    return row;
  });
  await tellOldAddress(ctx, member, kind, updated);
  return contactDetails(updated);
}

/** The old address (or number; the e-mail when there was no number) hears of the change. */
async function tellOldAddress(ctx: Services, before: MemberRow, kind: ContactKind, after: MemberRow) {
  const company = await companyName(ctx);
  if (kind === 'email') {
    if (!before.email) return;
    await ctx.outbox.send(
      'email',
      before.email,
      `${company}: your e-mail address was changed`,
      `The e-mail address of your ${company} account was changed to ${maskDestination('email', after.email ?? '')}. ` +
        'If you did not make this change, reset your password and contact support at once.',
    );
    return;
  }
  const text =
    `The mobile number of your ${company} account was changed to ${maskMobile(after.mobileCode ?? '', after.mobile ?? '')}. ` +
    'If you did not make this change, reset your password and contact support at once.';
  if (before.mobile) await ctx.outbox.send('sms', `${before.mobileCode ?? ''}${before.mobile}`, `${company}: your mobile number was changed`, text);
  else if (before.email) await ctx.outbox.send('email', before.email, `${company}: your mobile number was changed`, text);
}

/** What the phone form shows: the current number and the phone codes of the countries signup offers. */
export async function phoneSettings(ctx: Pick<AppContext, 'settings'>, member: MemberRow) {
  return { mobile_code: member.mobileCode, mobile: member.mobile, countries: await ctx.settings.countries() };
}
