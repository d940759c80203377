// @vitest-environment node
/** The upload pipeline itself: names, headers, the quota, files kept outside served folders under random names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, get, login, rows } from './helpers';
import { file, pdf, photo, postMultipart, text } from './upload-support';
import { contentDisposition, sanitiseFileName, uploadsRoot } from '../../server/lib/uploads';

let s: TestServer;
beforeAll(async () => {
  // A small quota: two 1 MB PDFs fit, a third does not.
  s = await startTestServer({ uploadQuotaBytes: 2.5 * 1024 * 1024 });
});
afterAll(async () => {
  await s?.close();
});

const category = async () => String((await rows<{ id: number }>(s.database, sql`SELECT id FROM kyc_categories ORDER BY id LIMIT 1`))[0].id);
const mbPdf = () => Buffer.concat([pdf(), Buffer.alloc(1024 * 1024, 32)]);

describe('stored files', () => {
  it('live under random names in the uploads folder, not under the original name', async () => {
    const [m] = await bulkMembers(s.database, 1, 20);
    await s.database.rows(sql`UPDATE member_kyc SET status = 'not_submitted' WHERE member_id = ${m.id}`);
    await s.database.rows(sql`DELETE FROM kyc_documents WHERE member_id = ${m.id}`);
    const { token } = await login(s.app, m.username);
    const res = await postMultipart(s.app, '/api/kyc', [text('category', await category()), text('id_number', 'A'), file('documents[]', '../../etc/"evil"\r\nname.png', await photo())], token);
    expect(res.status).toBe(201);
    const [row] = await rows<{ stored_name: string; original_name: string }>(s.database, sql`SELECT stored_name, original_name FROM uploads WHERE member_id = ${m.id}`);
    expect(row.stored_name).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(row.original_name).toMatch(/^[^/\\"\r\n.][^/\\"\r\n]*name\.png$/);
    const root = uploadsRoot(s.config);
    expect(existsSync(path.join(root, row.stored_name))).toBe(true);
    expect(readdirSync(root).some((n) => n.includes('evil'))).toBe(false);
    expect(path.relative(path.resolve('dist'), root).startsWith('..')).toBe(true);
    const dl = await get(s.app, `/api/uploads/${res.body.data.documents[0].id}`, { token });
    expect(dl.headers['content-disposition']).toBe(contentDisposition(row.original_name));
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="[^"\r\n]+name\.png"; filename\*=UTF-8''/);
  });

  it('names are made safe for headers and screens', () => {
    expect(sanitiseFileName('C:\\Users\\me\\scan;rm -rf.pdf')).toBe('scanrm -rf.pdf');
    expect(sanitiseFileName('...')).toBe('file');
    expect(contentDisposition('Pasaporte añil "1".pdf')).toBe(`attachment; filename="Pasaporte a_il 1.pdf"; filename*=UTF-8''Pasaporte%20a%C3%B1il%201.pdf`);
  });
});

describe('quota', () => {
  it('a member over the quota is refused with 413 and the field named; nothing is kept', async () => {
    const [m] = await bulkMembers(s.database, 1, 21);
    await s.database.rows(sql`UPDATE member_kyc SET status = 'not_submitted' WHERE member_id = ${m.id}`);
    await s.database.rows(sql`DELETE FROM kyc_documents WHERE member_id = ${m.id}`);
    const { token } = await login(s.app, m.username);
    const cat = await category();
    const first = await postMultipart(s.app, '/api/kyc', [text('category', cat), text('id_number', 'A'), file('documents[]', 'a.pdf', mbPdf()), file('documents[]', 'b.pdf', mbPdf())], token);
    expect(first.status).toBe(201);
    await s.database.rows(sql`UPDATE kyc_documents SET status = 'rejected', reason = 'x' WHERE member_id = ${m.id}`);
    await s.database.rows(sql`UPDATE member_kyc SET status = 'rejected' WHERE member_id = ${m.id}`);
    const before = readdirSync(uploadsRoot(s.config)).length;
    const over = await postMultipart(s.app, '/api/kyc', [text('category', cat), text('id_number', 'A'), file('documents[]', 'c.pdf', mbPdf())], token);
    expect(over.status).toBe(413);
    expect(over.body.errors).toEqual({ documents: ['account:upload.quotaExceeded'] });
    expect(readdirSync(uploadsRoot(s.config)).length).toBe(before);
    expect(await rows(s.database, sql`SELECT count(*)::int AS n FROM kyc_documents WHERE member_id = ${m.id}`)).toEqual([{ n: 1 }]);
    // Another member's quota is their own.
    const [other] = await bulkMembers(s.database, 1, 22);
    await s.database.rows(sql`UPDATE member_kyc SET status = 'not_submitted' WHERE member_id = ${other.id}`);
    await s.database.rows(sql`DELETE FROM kyc_documents WHERE member_id = ${other.id}`);
    const theirs = await postMultipart(s.app, '/api/kyc', [text('category', cat), text('id_number', 'A'), file('documents[]', 'c.pdf', mbPdf())], (await login(s.app, other.username)).token);
    expect(theirs.status).toBe(201);
  });
});
