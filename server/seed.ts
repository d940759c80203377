export async function seedIfEmpty(..._a: unknown[]): Promise<boolean> { return false; }
