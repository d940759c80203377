/** Requests for a demo of the product (spec §7 request_demo): the form's choices, and a request stored and mailed to the company. */
import type { RequestDemoRequest } from '../../src/schemas/auth.schema';
import { demoRequests } from '../db/schema';
import type { AppContext } from './app-context';
import { validationError, type FieldMap } from './errors';

export const DEMO_COMPENSATION_PLANS = [
  { id: 1, name: 'Binary' },
  { id: 2, name: 'Matrix' },
  { id: 3, name: 'Unilevel' },
];
export const DEMO_INDUSTRIES = [
  { id: 1, name: 'Health and wellness' },
  { id: 2, name: 'Beauty and personal care' },
  { id: 3, name: 'Nutrition and supplements' },
  { id: 4, name: 'Home and household' },
  { id: 5, name: 'Fashion and accessories' },
  { id: 6, name: 'Financial services' },
  { id: 7, name: 'Travel' },
  { id: 8, name: 'Education and training' },
];

/** What the request form offers. */
export async function demoOptions(ctx: Pick<AppContext, 'settings'>) {
  return { countries: await ctx.settings.countries(), compensation_plans: DEMO_COMPENSATION_PLANS, industries: DEMO_INDUSTRIES };
}

/** Store a demo request (its choices must be ones the form offers) and mail it to the company. */
export async function requestDemo(ctx: Pick<AppContext, 'database' | 'settings' | 'outbox'>, b: RequestDemoRequest) {
  const errors: FieldMap = {};
  const countries = await ctx.settings.countries();
  const country = b.country_id === undefined ? null : countries.find((c) => c.id === b.country_id);
  if (b.country_id !== undefined && !country) errors.country_id = ['validation:invalidChoice'];
  const industry = b.industry === undefined ? null : DEMO_INDUSTRIES.find((i) => i.id === b.industry);
  if (b.industry !== undefined && !industry) errors.industry = ['validation:invalidChoice'];
  const plan = b.compensation_plan === undefined ? null : DEMO_COMPENSATION_PLANS.find((p) => p.id === b.compensation_plan);
  if (b.compensation_plan !== undefined && !plan) errors.compensation_plan = ['validation:invalidChoice'];
  if (Object.keys(errors).length) throw validationError(errors);
  await ctx.database.db.insert(demoRequests).values({
    name: b.name,
    email: b.email,
    mobile: b.mobile,
    platform: b.platform,
    countryId: country?.id ?? null,
    industryId: industry?.id ?? null,
    compensationPlanId: plan?.id ?? null,
  });
  const company = await ctx.settings.get('company');
  await ctx.outbox.send(
    'email',
    company.email,
    `Demo request from ${b.name}`,
    [
      `Name: ${b.name}`,
      `E-mail: ${b.email}`,
      `Mobile: ${b.mobile}`,
      `Country: ${country?.name ?? '-'}`,
      `Industry: ${industry?.name ?? '-'}`,
      `Compensation plan: ${plan?.name ?? '-'}`,
      `Platform: ${b.platform}`,
    ].join('\n'),
  );
}
