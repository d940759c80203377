/** Address book demo data: a home and a work address of `demo`, in the United States. */
import { eq } from 'drizzle-orm';
import { countries } from '../db/schema';
import { addresses } from '../db/schema-account';
import type { Seeder } from '../seed';

export const addressesSeeder: Seeder = async ({ db, members }) => {
  const [us] = await db.select({ id: countries.id, name: countries.name }).from(countries).where(eq(countries.isoCode2, 'US')).limit(1);
  if (!us) return;
  const base = { memberId: members.ids.demo, countryId: us.id, countryName: us.name, zoneName: 'Illinois' };
  await db.insert(addresses).values([
    {
      ...base,
      firstName: 'Dana',
      lastName: 'Demo',
      address1: '1200 Lake Shore Drive',
      address2: 'Apt 4B',
      city: 'Chicago',
      postcode: '60610',
      email: 'demo@example.com',
      phone: '3125550142',
      createdAt: new Date(Date.UTC(2026, 8, 1, 10)),
    },
    {
      ...base,
      firstName: 'Dana',
      lastName: 'Demo',
      company: 'Upline Distribution',
      address1: '233 South Wacker Drive',
      address2: 'Suite 8400',
      city: 'Chicago',
      postcode: '60606',
      email: 'dana.work@example.com',
      phone: '3125550199',
      createdAt: new Date(Date.UTC(2026, 8, 2, 10)),
    },
  ]);
};
