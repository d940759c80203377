/**
 * Country names in the member's language: the browser's own region names (Intl.DisplayNames, from the
 * ISO 3166 code the server sends), the server's English name where the browser has none; sorted as that
 * language sorts.
 */
export interface NamedCountry {
  id: number;
  name: string;
  iso_code_2: string;
}

export function countryName(country: NamedCountry, language: string): string {
  try {
    const names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'none' });
    return names.of(country.iso_code_2.toUpperCase()) ?? country.name;
  } catch {
    return country.name;
  }
}

export function localCountries<C extends NamedCountry>(countries: C[], language: string): Array<C & { name: string }> {
  const collator = new Intl.Collator(language);
  return countries.map((c) => ({ ...c, name: countryName(c, language) })).sort((a, b) => collator.compare(a.name, b.name));
}
