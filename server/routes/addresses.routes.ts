/**
 * The member's address book (spec §2 /member/account/addresses, §3 "Address"), declared on the
 * member-owned records helper: GET/POST /api/user/addresses, GET/PUT/DELETE /api/user/addresses/{id} and
 * POST /api/user/addresses/{id}/restore, each on the signed-in member's own addresses only. The country is
 * one of the countries the signup offers; its name is kept with the address as it was when written. Each
 * addition, change, deletion and restore leaves a row in the member's audit trail (read in their data export).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/app-context';
import { resourceEndpoints } from '../lib/resource-endpoint';
import { validationError } from '../lib/errors';
import { countries } from '../db/schema';
import { addresses, type AddressRow } from '../db/schema-account';
import type { Db } from '../db/client';
import { addressListQuerySchema, addressRequestSchema, addressSchema, type Address, type AddressRequest } from '../../src/schemas/account.schema';

const countryName = async (db: Db, id: number) => (await db.select({ name: countries.name }).from(countries).where(eq(countries.id, id)).limit(1))[0]?.name;

/** Column values of an address body; a country that does not exist is a field error. */
async function addressValues(b: AddressRequest, db: Db) {
  const name = await countryName(db, b.country_id);
  if (name === undefined) throw validationError({ country_id: ['validation:invalidChoice'] });
  return {
    firstName: b.first_name,
    lastName: b.last_name ?? '',
    company: b.company ?? '',
    address1: b.address_1,
    address2: b.address_2 ?? '',
    city: b.city,
    postcode: b.postcode ?? '',
    email: b.email ?? '',
    phone: b.phone ?? '',
    countryId: b.country_id,
    countryName: name,
    zoneId: b.zone_id ?? null,
    zoneName: b.zone_name ?? '',
  };
}

const toAddress = (r: AddressRow): Address => ({
  id: r.id,
  first_name: r.firstName,
  last_name: r.lastName,
  company: r.company,
  address_1: r.address1,
  address_2: r.address2,
  city: r.city,
  postcode: r.postcode,
  email: r.email,
  phone: r.phone,
  country_id: r.countryId,
  zone_id: r.zoneId,
  country_name: r.countryName,
  zone_name: r.zoneName,
  created_at: r.createdAt.toISOString(),
});

export async function addressesRoutes(app: FastifyInstance, ctx: AppContext) {
  resourceEndpoints(app, ctx, {
    path: '/api/user/addresses',
    tags: ['users'],
    table: addresses,
    body: addressRequestSchema,
    item: addressSchema,
    values: addressValues,
    toItem: toAddress,
    list: { querystring: addressListQuerySchema },
    // Where orders are shipped is part of the account: every change is in the member's audit trail.
    audit: {
      actions: { created: 'address.added', updated: 'address.changed', deleted: 'address.deleted', restored: 'address.restored' },
      detail: (r) => ({ address_id: r.id, country: r.countryName }),
    },
  });
}
