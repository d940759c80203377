/**
 * /member/account/addresses, declared on the resource factory: the address book (list + delete with
 * confirmation and undo), and the new-address and edit page (edit takes the address id as `input.params`),
 * with the countries the signup offers as the form's choices.
 */
import { addressApi } from '../../api/account';
import { authApi } from '../../api/auth';
import { addressRequestSchema, EMPTY_ADDRESS, type Address, type AddressValues } from '../../schemas/account.schema';
import { nextFromUrl } from '../paged-list.machine';
import { createResource } from '../resource.machine';

/** The address book has no filters. */
export type AddressFilters = Record<string, never>;

export const addresses = createResource({
  id: 'address',
  api: {
    list: async ({ next, signal }): Promise<{ items: Address[]; next: ReturnType<typeof nextFromUrl> }> => {
      const page = await addressApi.list(next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: addressApi.get,
    create: addressApi.create,
    update: addressApi.update,
    remove: addressApi.remove,
    restore: addressApi.restore,
  },
  schema: addressRequestSchema,
  initialValues: EMPTY_ADDRESS,
  // The countries the signup offers, for the form's select.
  choices: () => authApi.loginFields().then((f) => f.countries),
  valuesOf: (a: Address): AddressValues => ({
    first_name: a.first_name,
    last_name: a.last_name,
    company: a.company,
    address_1: a.address_1,
    address_2: a.address_2,
    city: a.city,
    postcode: a.postcode,
    email: a.email,
    phone: a.phone,
    country_id: String(a.country_id),
    zone_name: a.zone_name,
  }),
});

