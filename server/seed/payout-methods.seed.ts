/** Where demo's payouts go: a German bank account (IBAN, BIC) and bank transfer as the payout method. */
import { sql } from 'drizzle-orm';
import type { Seeder } from '../seed';

export const payoutMethodsSeeder: Seeder = async ({ db, members }) => {
  const demo = members.ids.demo;
  await db.execute(sql`
    INSERT INTO bank_details (member_id, account_holder, country, iban, bic, bank_name)
    VALUES (${demo}, 'Demo Member', 'DE', 'DE89370400440532013000', 'COBADEFFXXX', 'Commerzbank')`);
  await db.execute(sql`INSERT INTO payout_methods (member_id, method) VALUES (${demo}, 'bank_transfer')`);
};
