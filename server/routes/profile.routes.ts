/**
 * Basic details of the signed-in member (/member/account/basic): GET/PUT /api/user/profile (first and last
 * name), POST /api/user/avatar (multipart: the image under `avatar`, the square to keep as crop_x, crop_y,
 * crop_size), DELETE /api/user/avatar. Each answers the member's user record. GET /media/avatars/{name}
 * serves a current avatar (shown to the member's team by plain image tags).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { profileRequestSchema, profileSchema } from '../../src/schemas/profile.schema';
import { changeAvatar, removeAvatar, sendAvatar, sessionProfile, updateProfile } from '../lib/profile';
import { protectedAction, requireAuth } from '../lib/auth';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { UPLOAD_POLICIES, readUploadRequest, uploadRoute } from '../lib/uploads';

const tags = ['users'];
const perMember = (req: FastifyRequest) => `profile|${req.member?.id ?? req.ip}`;

export async function profileRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);
  const response = { 200: envelope(profileSchema) };

  app.get(
    '/api/user/profile',
    { preHandler: requireAuth, schema: { tags, description: 'The signed-in member: name and avatar.', response } },
    async (req) => ctx.envelope(req, sessionProfile(req.member!)),
  );
  app.put(
    '/api/user/profile',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(30, 10 * MINUTE, perMember),
      schema: { tags, description: 'Change the first name (required) and last name.', body: profileRequestSchema, response },
    },
    async (req) => ctx.envelope(req, await updateProfile(ctx, req.member!.id, req.body, req.ip)),
  );
  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/user/avatar',
      tags,
      description:
        'New avatar (multipart/form-data): one JPG, PNG or WebP image (by its content, 10 MB at most) under `avatar`, and the square to keep ' +
        '(`crop_x`, `crop_y`, `crop_size` in pixels of the upright image; the centre square when left out). Kept as a 512 px square WebP.',
      response,
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req) => ctx.envelope(req, await changeAvatar(ctx, req.member!.id, await readUploadRequest(req, UPLOAD_POLICIES.avatar), req.ip)),
  );
  app.delete(
    '/api/user/avatar',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(20, 10 * MINUTE, perMember),
      schema: { tags, description: 'Remove the avatar.', response },
    },
    async (req) => ctx.envelope(req, await removeAvatar(ctx, req.member!.id, req.ip)),
  );
  app.get(
    '/media/avatars/:name',
    { schema: { hide: true, params: z.object({ name: z.string() }) } },
    async (req, reply) => sendAvatar(ctx, reply, req.params.name),
  );
}
