/**
 * End to end in Chromium, one real server per compensation plan (PLAN=binary|matrix|unilevel, a fresh
 * database seeded on that plan): sign in, the genealogy as the plan draws it, a recruit registered into a
 * free place with the one-time code from the mail (and signing in), the plan's tabs and histories and no others,
 * the rank tab's criteria of the plan, and a level wider than one answer paged from the server.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, openGenealogy, readCode, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const described = (page: Page) => page.locator('[data-focus-description]').textContent().then((t) => t ?? '');
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

/** Members one level below the focused one: down, then right until the focus stops moving. */
async function levelWidth(page: Page, most: number): Promise<string[]> {
  const tree = page.getByRole('application', { name: /Genealogy tree|Árbol genealógico/ });
  await tree.focus();
  await tree.press('ArrowDown');
  // From wherever the focus lands on that level, to its first member.
  for (let i = 0, last = ''; i < most && (await described(page)) !== last; i++) {
    last = await described(page);
    await tree.press('ArrowLeft');
  }
  const seen = [await described(page)];
  for (let i = 0; i < most; i++) {
    await tree.press('ArrowRight');
    const text = await described(page);
    if (text === seen[seen.length - 1]) break;
    seen.push(text);
  }
  return seen;
}

interface Labels {
  firstName: string;
  email: RegExp;
  username: RegExp;
  password: string;
  confirm: string;
  submit: string;
  verify: string;
}
const EN: Labels = { firstName: 'First name', email: /^E-mail/, username: /^Username/, password: 'Password', confirm: 'Confirm password', submit: 'Register', verify: 'Verify code' };
const ES: Labels = { firstName: 'Nombre', email: /^Correo electrónico/, username: /^Nombre de usuario/, password: 'Contraseña', confirm: 'Confirmar contraseña', submit: 'Registrar', verify: 'Verificar código' };

/** On /member/signup: the recruit's details, Register, then the code mailed to the recruit; answers the success text. */
async function registerRecruit(page: Page, server: { outbox: unknown[] } & Parameters<typeof readCode>[0], username: string, l: Labels) {
  const form = page.getByRole('form');
  await form.getByRole('textbox', { name: l.firstName, exact: true }).fill('Rita');
  await form.getByRole('textbox', { name: l.email }).fill(`${username}@example.org`);
  await form.getByRole('textbox', { name: l.username }).fill(username);
  await form.getByLabel(l.password, { exact: true }).fill('Recruit-pass-26');
  await form.getByLabel(l.confirm, { exact: true }).fill('Recruit-pass-26');
  await form.getByRole('checkbox').check();
  const sent = server.outbox.length;
  await form.getByRole('button', { name: l.submit, exact: true }).click();
  await page.waitForURL('**/member/signup/otp').catch(async (e: Error) => {
    const saved = await page.evaluate(() => Object.entries(sessionStorage).map(([k, v]) => `${k}=${v.slice(0, 300)}`).join('\n'));
    throw new Error(`not on the code step at ${page.url()}: ${(await page.locator('main').innerHTML()).slice(0, 1500)} ${saved} (${e.message})`);
  });
  const code = await readCode(server, `${username}@example.org`, sent);
  await page.getByRole('textbox', { name: /code|código/i }).fill(code);
  await page.getByRole('button', { name: l.verify }).click();
  await page.waitForURL('**/member/signup/success');
  return page.getByRole('status').filter({ hasText: username }).textContent();
}

async function recruitSignsIn(app: ReturnType<typeof realAppForFile>, username: string) {
  const { context, page } = await newPage(app.browser, app.server);
  await signIn(page, username, 'Recruit-pass-26');
  await context.close();
}

describe('binary company', () => {
  const app = realAppForFile({ RATE_LIMIT_SCALE: '100', PLAN: 'binary', SEED_MEMBERS: '300' });

  test('a recruit goes into an empty slot of the genealogy with the one-time code and signs in; binary tab and history are there', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    // A first recruit, placed automatically (the outside of demo's left leg): a leaf with two empty slots.
    await page.goto('/member/signup');
    expect(await page.getByRole('radio', { name: 'Left' }).isChecked()).toBe(true);
    expect(await registerRecruit(page, app.server, 'bina.first', EN)).toContain('bina.first');

    await page.goto('/member/network/genealogy?username=bina.first');
    const tree = page.getByRole('application', { name: 'Genealogy tree' });
    await tree.waitFor();
    await tree.focus();
    await tree.press('ArrowDown');
    await tree.press('ArrowRight');
    expect(await described(page)).toMatch(/^Empty right slot under bina\.first/i);
    await page.getByRole('link', { name: 'Sign up here' }).click();
    await page.waitForURL('**/member/signup**');
    // The place is picked in the list of free places (narrowed to bina.first's): its right slot.
    const place = page.getByRole('combobox', { name: 'Place' });
    await expect.poll(() => place.locator('option:checked').textContent(), { timeout: 30_000 }).toMatch(/^Under bina\.first \(Rita\), Right — level \d+$/);
    expect(await place.locator('option').allTextContents()).toEqual([
      "Automatic: the plan's next free place",
      expect.stringMatching(/^Under bina\.first \(Rita\), Left/),
      expect.stringMatching(/^Under bina\.first \(Rita\), Right/),
    ]);
    expect(await registerRecruit(page, app.server, 'bina.second', EN)).toContain('bina.second');

    // At once in the genealogy, under bina.first on the right.
    await page.goto('/member/network/genealogy?username=bina.first');
    await tree.waitFor();
    await tree.focus();
    await tree.press('ArrowDown');
    await tree.press('ArrowRight');
    expect(await described(page)).toMatch(/^bina\.second, /);

    await page.goto('/member/home/dashboard');
    await page.getByRole('tab', { name: 'Binary' }).waitFor();
    await page.goto('/member/binary-history');
    await page.getByRole('heading', { name: 'Binary history' }).waitFor();
    await context.close();
    await recruitSignsIn(app, 'bina.second');
  });
});

describe('matrix company (width 3)', () => {
  const app = realAppForFile({ RATE_LIMIT_SCALE: '100', PLAN: 'matrix', SEED_MEMBERS: '300' });

  test('in Spanish, dark, on a 360 px phone: three places a level, a recruit spills over into a free place, no binary pages', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page);
    // demo's saved language is English: the header's switch makes it Spanish.
    await page.getByRole('combobox', { name: 'Language' }).first().selectOption('es');
    await page.getByRole('tab', { name: 'Panel' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');

    const answer = page.waitForResponse((r) => /\/api\/network\/genealogy(\?|$)/.test(r.url()));
    await page.goto('/member/network/genealogy');
    await page.getByRole('application', { name: 'Árbol genealógico' }).waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('genealogy:paint').length > 0);
    expect((await (await answer).json()).data).toMatchObject({ compensation_plan: 'matrix', max_width: 3 });
    expect(await levelWidth(page, 6)).toHaveLength(3);

    await page.goto('/member/signup');
    await page.getByRole('heading', { name: 'Registrar un miembro' }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(0);
    // The free places of demo's matrix, in spill-over order: the list the server answers, first free place first.
    const token = await page.evaluate(() => localStorage.getItem('auth_token')?.replace(/^"|"$/g, '') ?? '');
    const free = (await (
      await fetch(new URL('/api/network/free_places', app.server.url), { headers: { 'x-app-key': 'upline-demo-key', accept: 'application/json', authorization: `Bearer ${token}` } })
    ).json()) as { data: { places: Array<{ placement: string; slot: number; level: number }> } };
    expect(free.data.places.length).toBeGreaterThan(1);
    // Breadth first: never a shallower place after a deeper one.
    const levels = free.data.places.map((p) => p.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const place = page.getByRole('combobox', { name: 'Lugar' });
    await place.locator('option').nth(free.data.places.length).waitFor({ state: 'attached' });
    const shown = (await place.locator('option').allTextContents()).slice(1);
    expect(shown.slice(0, free.data.places.length)).toEqual(free.data.places.map((p) => expect.stringMatching(new RegExp(`^Bajo ${p.placement.replace('.', '\\.')} \\(.*\\), lugar ${p.slot} — nivel ${p.level}$`))));
    // The recruit goes into the second free place of the list, picked from it.
    const picked = free.data.places[1];
    await place.selectOption({ index: 2 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await registerRecruit(page, app.server, 'matr.one', ES)).toContain('matr.one');
    await page.getByRole('link', { name: 'Verlo en la genealogía' }).click();
    await page.waitForURL('**/member/network/genealogy?username=matr.one');
    await page.getByRole('application').waitFor();
    await page.getByRole('application').focus();
    expect(await described(page)).toMatch(/^matr\.one, /);
    // There: under the member of that place, in that place.
    const at = (await (
      await fetch(new URL(`/api/network/genealogy?username=${picked.placement}&is_nested=1`, app.server.url), {
        headers: { 'x-app-key': 'upline-demo-key', accept: 'application/json', authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { genealogy: { children: Array<{ username: string; slot?: number | null }> } } };
    expect(at.data.genealogy.children.find((c) => c.username === 'matr.one')).toMatchObject({ slot: picked.slot - 1 });

    // The rank tab reads the matrix's own criteria: filled levels, places, PV; no leg of a binary tree.
    await page.goto('/member/home/rank');
    const figures = page.getByTestId('rank-figures');
    await figures.getByText('Niveles de la matriz completos').waitFor();
    await figures.getByText('Puestos de la matriz ocupados').waitFor();
    await figures.getByText('Volumen personal (PV)').waitFor();
    expect(await page.getByText(/pierna/).count()).toBe(0);
    expect(await page.locator('[data-rank="Associate"], [data-rank="Builder"], [data-rank="Director"], [data-rank="Executive"], [data-rank="Ambassador"]').count()).toBeGreaterThan(0);

    // The Home tabs and the network menu have no binary pages; the URL of one is refused.
    await page.goto('/member/home/dashboard');
    await page.getByRole('tab', { name: 'Paquete' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Binario' }).count()).toBe(0);
    await page.goto('/member/binary-history');
    await page.getByText('Esta página no está disponible para tu cuenta.').waitFor();
    expect(await page.getByRole('heading', { name: 'Historial binario' }).count()).toBe(0);
    await context.close();
    await recruitSignsIn(app, 'matr.one');
  });
});

describe('unilevel company', () => {
  // As many members as `npm start` seeds: demo recruits more than one genealogy answer carries (500).
  const app = realAppForFile({ RATE_LIMIT_SCALE: '100', PLAN: 'unilevel', SEED_MEMBERS: '3000' });

  test('a wide first level, a recruit directly under the member, in the downline report at once; no binary pages', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await openGenealogy(page);
    // The wide first level: a group of recruits, then "+ N more" (at least 24 recruits in all).
    const first = await levelWidth(page, 80);
    expect(first.length).toBe(11);
    const more = /^(\d+) more recruits of demo: press Enter/.exec(first[10]);
    expect(Number(more?.[1])).toBeGreaterThanOrEqual(14);
    const firstGroup = first.slice(0, 10).map((d) => d.split(',')[0]);
    const tree = page.getByRole('application', { name: 'Genealogy tree' });
    // Enter on "+ N more" shows the next recruits by name; the focus stays on "more" (now N - 10).
    await tree.press('Enter');
    await page.waitForFunction((n) => document.querySelector('[data-focus-description]')?.textContent?.startsWith(`${n} more recruits of demo`), Number(more![1]) - 10);
    await tree.press('ArrowLeft');
    const next = (await described(page)).split(',')[0];
    expect(next).toMatch(/^[\w.]+$/);
    expect(firstGroup).not.toContain(next);
    await tree.press('ArrowUp');
    const wider = await levelWidth(page, 80);
    const group = (level: string[]) => level.filter((d) => !/more recruits of|Show only the first/.test(d));
    expect(group(wider)).toHaveLength(20);
    expect(group(wider).map((d) => d.split(',')[0])).toContain(next);
    // At the end of the level "fewer" goes back to the first group.
    expect(wider[wider.length - 1]).toBe('Show only the first 10 recruits of demo');
    await tree.press('Enter');
    await tree.press('ArrowUp');
    expect((await levelWidth(page, 80)).map((d) => d.split(',')[0])).toEqual([...firstGroup, first[10].split(',')[0]]);

    await page.goto('/member/signup');
    await page.getByText('In a unilevel plan new members go directly under you.').waitFor();
    expect(await page.getByRole('textbox', { name: /Placement/ }).count()).toBe(0);
    expect(await registerRecruit(page, app.server, 'uni.one', EN)).toContain('uni.one');
    await page.goto('/member/network/downline');
    await page.getByText('uni.one').first().waitFor();

    // The rank tab reads the unilevel's own criteria: active recruits, PV, group volume; no binary leg.
    await page.goto('/member/home/rank');
    const figures = page.getByTestId('rank-figures');
    await figures.getByText('Active personal recruits').waitFor();
    await figures.getByText('Personal volume (PV)').waitFor();
    await figures.getByText('Group volume').waitFor();
    expect(await page.getByText(/leg volume/i).count()).toBe(0);
    // The unilevel's own ranks (achieved, or the next ones), none of the binary's.
    await page.getByText(/^(Leader|Senior Leader|Director|Senior Director|Presidential)$/).first().waitFor();
    expect(await page.getByText(/^(Bronze|Silver|Gold|Platinum|Diamond)$/).count()).toBe(0);

    await page.goto('/member/home/dashboard');
    await page.getByRole('tab', { name: 'Rank' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Binary' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Binary history' }).count()).toBe(0);
    await context.close();
    await recruitSignsIn(app, 'uni.one');
  });

  test('a level wider than one answer: "more" goes on into the next page of recruits from the server, each recruit once', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    type Answer = { data: { root_affiliate_id: number; more_children: Array<{ id: number; from: number }>; affiliates: Array<{ id: number; parent_id: number | null; username: string; child_count: number }> } };
    const firstAnswer = page.waitForResponse((r) => /\/api\/network\/genealogy(\?|$)/.test(r.url()));
    await openGenealogy(page);
    const first = ((await (await firstAnswer).json()) as Answer).data;
    const rootId = first.root_affiliate_id;
    const total = first.affiliates.find((n) => n.id === rootId)!.child_count;
    const carried = first.affiliates.filter((n) => n.parent_id === rootId);
    // The server cut demo's level and says where it goes on.
    expect(total).toBeGreaterThan(500);
    expect(first.more_children).toContainEqual({ id: rootId, from: carried.length });
    const nextPage = page.waitForResponse((r) => r.url().includes(`/api/network/genealogy/${rootId}?`) && r.url().includes(`children_from=${carried.length}`));
    let pageAnswer: Answer['data'] | null = null;
    void nextPage.then(async (r) => (pageAnswer = ((await r.json()) as Answer).data));
    const tree = page.getByRole('application', { name: 'Genealogy tree' });
    const first10 = await levelWidth(page, 20);
    expect(first10[10]).toBe(`${total - 10} more recruits of demo: press Enter to show the next ones`);
    // "+ N more" ten at a time, until the recruits loaded are shown and the next page comes from the server.
    let shown = 10;
    while (shown <= carried.length) {
      await tree.press('Enter');
      shown += 10;
      await page.waitForFunction((n) => document.querySelector('[data-focus-description]')?.textContent?.startsWith(`${n} more recruits of demo`), total - shown);
    }
    await expect.poll(() => pageAnswer !== null, { timeout: 30_000 }).toBe(true);
    const next = pageAnswer!.affiliates.filter((n) => n.parent_id === rootId);
    // None of the next page's recruits was in the first answer.
    expect(next.some((n) => carried.some((c) => c.id === n.id))).toBe(false);
    // In the drawing: the last recruit of the first answer, then the first of the next page, by name.
    for (let i = 0; i < shown - carried.length; i++) await tree.press('ArrowLeft');
    expect((await described(page)).split(',')[0]).toBe(next[0].username);
    await tree.press('ArrowLeft');
    expect((await described(page)).split(',')[0]).toBe(carried[carried.length - 1].username);
    await context.close();
  }, 240_000);
});
