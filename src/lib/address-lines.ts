/** An address (an order's, or one of the address book) as the lines written on an envelope. */
export interface PostalAddress {
  first_name: string;
  last_name: string | null;
  company: string | null;
  address_1: string;
  address_2: string | null;
  postcode: string | null;
  city: string;
  zone_name: string | null;
  country_name: string | null;
}

/** Name, company, street lines, "postcode city", "zone, country"; empty parts left out. */
export function addressLines(a: PostalAddress): string[] {
  return [
    [a.first_name, a.last_name].filter(Boolean).join(' '),
    a.company,
    a.address_1,
    a.address_2,
    [a.postcode, a.city].filter(Boolean).join(' '),
    [a.zone_name, a.country_name].filter(Boolean).join(', '),
  ].filter((line): line is string => !!line);
}
