/** Spec §3: a member's full name is the first name plus the trimmed last name. */
export function fullName(person: { first_name: string; last_name?: string | null }): string {
  const last = person.last_name?.trim() ?? '';
  const first = person.first_name.trim();
  return last ? `${first} ${last}` : first;
}

/** Up to two initials for avatars without a picture. */
export function initials(person: { first_name: string; last_name?: string | null }): string {
  const a = person.first_name.trim().charAt(0);
  const b = person.last_name?.trim().charAt(0) ?? '';
  return (a + b).toUpperCase();
}
