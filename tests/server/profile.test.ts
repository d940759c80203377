// @vitest-environment node
/** Basic details: name and avatar (square crop, re-encoded, no EXIF), answered as the new user record. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, get, login, rows } from './helpers';
import { file, photo, postMultipart, text } from './upload-support';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const avatar = (url: string) => s.app.inject({ method: 'GET', url });

describe('GET/PUT /api/user/profile', () => {
  it('changes the name; the answer and the session check show it', async () => {
    const [m] = await bulkMembers(s.database, 1, 10);
    const { token } = await login(s.app, m.username);
    const res = await call(s.app, 'PUT', '/api/user/profile', { first_name: '  Ana ', last_name: 'Lima' }, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ first_name: 'Ana', last_name: 'Lima', username: m.username });
    expect((await get(s.app, '/api/user/profile', { token })).body.data.user.first_name).toBe('Ana');
    const audit = await rows(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id}`);
    expect(audit.map((a) => a.action)).toEqual(['profile.changed']);
    const cleared = await call(s.app, 'PUT', '/api/user/profile', { first_name: 'Ana', last_name: '' }, { token });
    expect(cleared.body.data.user.last_name).toBeNull();
  });

  it('bad input → 422 field map; not signed in → 401', async () => {
    const { token } = await login(s.app, 'demo');
    const empty = await call(s.app, 'PUT', '/api/user/profile', { first_name: '   ' }, { token });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ first_name: ['validation:required'] });
    const long = await call(s.app, 'PUT', '/api/user/profile', { first_name: 'x'.repeat(61), last_name: 7, role_id: 1 }, { token });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors).sort()).toEqual(['first_name', 'last_name', 'role_id']);
    expect((await call(s.app, 'PUT', '/api/user/profile', { first_name: 'A' })).status).toBe(401);
    expect((await get(s.app, '/api/user/profile')).status).toBe(401);
  });
});

describe('POST /api/user/avatar', () => {
  it('keeps the chosen square as a 512 px WebP without EXIF, served at an unguessable address; the old one goes', async () => {
    const [m] = await bulkMembers(s.database, 1, 11);
    const { token } = await login(s.app, m.username);
    // 300×200: the left half red, the right half blue; the member keeps a 100 px square of the right half.
    const img = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } } })
      .composite([{ input: { create: { width: 150, height: 200, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 150, top: 0 }])
      .withExif({ IFD0: { Artist: 'private-exif-marker' } })
      .jpeg()
      .toBuffer();
    const res = await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'me.jpg', img, 'image/jpeg'), text('crop_x', '180'), text('crop_y', '50'), text('crop_size', '100')], token);
    expect(res.status).toBe(200);
    const url: string = res.body.data.user.avatar;
    expect(url).toMatch(/^\/media\/avatars\/[a-f0-9]{32}\.webp$/);
    const served = await avatar(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.includes(Buffer.from('private-exif-marker'))).toBe(false);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([512, 512, undefined]);
    const { dominant } = await sharp(served.rawPayload).stats();
    expect(dominant.b).toBeGreaterThan(200);
    expect(dominant.r).toBeLessThan(60);

    const again = await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'me.png', await photo())], token);
    expect(again.status).toBe(200);
    expect(again.body.data.user.avatar).not.toBe(url);
    expect((await avatar(url)).statusCode).toBe(404);
    expect(await rows(s.database, sql`SELECT count(*)::int AS n FROM uploads WHERE member_id = ${m.id} AND kind = 'avatar'`)).toEqual([{ n: 1 }]);

    const removed = await call(s.app, 'DELETE', '/api/user/avatar', undefined, { token });
    expect(removed.body.data.user.avatar).toBeNull();
    expect((await avatar(again.body.data.user.avatar)).statusCode).toBe(404);
    const audit = await rows(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id}`);
    expect(audit.map((a) => a.action)).toEqual(['avatar.changed', 'avatar.changed', 'avatar.changed']);
  });

  it('refuses what is not an image it takes, a bad crop, no file; guessed addresses → 404', async () => {
    const { token } = await login(s.app, 'demo');
    const pdfAvatar = await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'me.png', Buffer.from('%PDF-1.4\n%%EOF'), 'image/png')], token);
    expect(pdfAvatar.status).toBe(422);
    expect(pdfAvatar.body.errors).toEqual({ avatar: ['account:upload.avatarType'] });
    const crop = await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'me.png', await photo()), text('crop_x', '-4'), text('crop_size', 'big')], token);
    expect(crop.status).toBe(422);
    expect(Object.keys(crop.body.errors).sort()).toEqual(['crop_size', 'crop_x', 'crop_y']);
    const none = await postMultipart(s.app, '/api/user/avatar', [text('crop_x', '1')], token);
    expect(none.status).toBe(422);
    const two = await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'a.png', await photo()), file('avatar', 'b.png', await photo())], token);
    expect(two.status).toBe(413);
    expect(two.body.errors).toEqual({ avatar: ['account:upload.tooManyFiles'] });
    expect((await postMultipart(s.app, '/api/user/avatar', [file('avatar', 'a.png', await photo())])).status).toBe(401);
    for (const guess of ['/media/avatars/../../package.json', '/media/avatars/00000000000000000000000000000000.webp', '/media/avatars/x']) {
      expect((await avatar(guess)).statusCode).toBe(404);
    }
  });
});
