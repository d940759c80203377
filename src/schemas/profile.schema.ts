/**
 * The member's basic details (/member/account/basic, spec §3 "User"): first and last name and the avatar.
 * GET/PUT /api/user/profile, POST /api/user/avatar (multipart: the image under `avatar`, and the square the
 * member chose in it), DELETE /api/user/avatar. Every answer is the member's new user record, so the session
 * shows the new name and picture at once.
 */
import * as z from 'zod/mini';
import { userSchema } from './common.schema';

const name = (required: boolean) =>
  z.string().check(z.trim(), ...(required ? [z.minLength(1, 'validation:required')] : []), z.maxLength(60, 'validation:tooLong'));

/** Body of PUT /api/user/profile, and the check of the basic details form. */
export const profileRequestSchema = z.strictObject({
  first_name: name(true),
  last_name: z.optional(name(false)),
});
export type ProfileRequest = z.infer<typeof profileRequestSchema>;

/** The form's values (text as typed). */
export type ProfileValues = { first_name: string; last_name: string };

/** GET /api/user/profile and every answer of the profile calls. */
export const profileSchema = z.object({
  user: userSchema,
});
export type Profile = z.infer<typeof profileSchema>;

/** Avatar types a member may choose (the server reads the type from the bytes), up to 10 MB. */
export const AVATAR_FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

/** The square of the image to keep, in the pixels of the upright image (the text fields of POST /api/user/avatar). */
export const avatarCropSchema = z.object({
  crop_x: z.coerce.number<unknown>().check(z.int('validation:invalid'), z.gte(0, 'validation:invalid'), z.lte(100_000, 'validation:invalid')),
  crop_y: z.coerce.number<unknown>().check(z.int('validation:invalid'), z.gte(0, 'validation:invalid'), z.lte(100_000, 'validation:invalid')),
  crop_size: z.coerce.number<unknown>().check(z.int('validation:invalid'), z.gte(1, 'validation:invalid'), z.lte(100_000, 'validation:invalid')),
});
export type AvatarCrop = z.infer<typeof avatarCropSchema>;

/** The i18n key of what is wrong with a chosen avatar file, or null. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR_FILE_TYPES as readonly string[]).includes(file.type)) return 'account:upload.avatarType';
  if (file.size > AVATAR_MAX_BYTES) return 'account:upload.fileTooLarge';
  return null;
}

/**
 * The avatar form's values: the chosen image, how far it is zoomed (1 = the largest square that fits) and
 * where the square sits (0 to 1 across the room left on each axis), and the image's size once the browser has
 * read it. `avatarCropOf` turns them into the pixels the server crops.
 */
export interface AvatarValues {
  [field: string]: string | undefined | readonly File[];
  file: readonly File[];
  zoom: string;
  offset_x: string;
  offset_y: string;
  image_width: string;
  image_height: string;
}

export const EMPTY_AVATAR: AvatarValues = { file: [], zoom: '1', offset_x: '0.5', offset_y: '0.5', image_width: '0', image_height: '0' };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Number.isFinite(v) ? v : lo));

/** The square to keep, in the image's pixels. */
export function avatarCropOf(v: Pick<AvatarValues, 'zoom' | 'offset_x' | 'offset_y' | 'image_width' | 'image_height'>): AvatarCrop {
  const w = Math.max(1, Math.round(Number(v.image_width) || 1));
  const h = Math.max(1, Math.round(Number(v.image_height) || 1));
  const size = Math.max(1, Math.round(Math.min(w, h) / clamp(Number(v.zoom), 1, 4)));
  return {
    crop_x: Math.round((w - size) * clamp(Number(v.offset_x), 0, 1)),
    crop_y: Math.round((h - size) * clamp(Number(v.offset_y), 0, 1)),
    crop_size: size,
  };
}

/** The avatar form: one image of an allowed type and size. */
export const avatarFormSchema = z.object({
  file: z.array(z.custom<File>()).check(
    z.superRefine((files, ctx) => {
      if (files.length !== 1) return ctx.addIssue('validation:required');
      const problem = avatarFileProblem(files[0]);
      if (problem) ctx.addIssue(problem);
    }),
  ),
});
