-- Ranks belong to a compensation plan and name their own criteria (server/lib/ranks.ts): a binary rank asks
-- for personally sponsored active members and the volume of each leg, a matrix rank for filled levels and
-- places of the matrix and personal volume, a unilevel rank for personally sponsored active members,
-- personal volume and the group volume of the generations the plan pays. `criteria` maps each criterion
-- to the figure required (a decimal string); a rank without a plan counts on every plan.
ALTER TABLE ranks ADD COLUMN plan text CHECK (plan IN ('binary', 'matrix', 'unilevel'));
ALTER TABLE ranks ADD COLUMN criteria jsonb NOT NULL DEFAULT '{}'::jsonb;
UPDATE ranks SET criteria = jsonb_strip_nulls(jsonb_build_object(
  'referral_count', CASE WHEN referral_count > 0 THEN referral_count::text END,
  'pv', CASE WHEN pv > 0 THEN pv::text END,
  'tv', CASE WHEN tv > 0 THEN tv::text END));
ALTER TABLE ranks DROP COLUMN referral_count, DROP COLUMN pv, DROP COLUMN tv;
