/**
 * Register a member (/member/signup → /member/signup/otp → /member/signup/success): the signed-in member
 * signs a recruit up under themselves. The sponsor is the member; placement (binary and matrix plans) and
 * position (binary) come from the genealogy's empty slot or are typed, empty means the plan's automatic
 * place (binary: the outer leg; matrix: the first free place breadth-first, spill-over). Each URL shows
 * only its own step; a step that belongs to another URL redirects there.
 */
import { Anchor, Button, Group, NativeSelect, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect, useLocation } from 'wouter';
import type { Actor, ActorRefFrom } from 'xstate';
import type { freePlacesListMachine } from '../../machines/free-places.machine';
import type { FreePlace } from '../../schemas/network.schema';
import { asksPlacement, asksPosition, asksTerms, needsEmail, needsMobile, type SignupField, type signupMachine } from '../../machines/signup.machine';
import { useFieldError } from '../components/field-error';
import { LabelledRadios } from '../components/segmented-radios';
import { loadState, LoadStatus, stepOf } from '../public/auth/flow-status';
import { PasswordChecklist } from '../public/auth/password-checklist';
import { PhoneFields } from '../public/auth/phone-fields';
import { TermsCheckbox, VerifyStep } from '../public/auth/signup-flow';
import { SubmitAlert, submitProblem } from '../public/auth/submit-alert';
import { UnplacedErrors } from '../public/auth/unplaced-errors';

export const MEMBER_SIGNUP_PATH = '/member/signup';

export interface MemberSignupQuery {
  placement?: string;
  position?: 'L' | 'R';
  /** A matrix place under `placement` (1-based). */
  slot?: number;
  /** The recruit's details when the signup starts from a CRM lead (?first_name=&last_name=&email=&mobile=). */
  first_name?: string;
  last_name?: string;
  email?: string;
  mobile?: string;
}

/** The recruit's fields a link may prefill. */
const PREFILLED = ['first_name', 'last_name', 'email', 'mobile'] as const;

/**
 * ?placement=ann7&position=L (binary) or ?placement=ann7&slot=2 (matrix): the genealogy's "sign up here"; and the
 * recruit's name, e-mail and mobile when a CRM lead is registered as a member.
 */
export const memberSignupCodec = {
  parse(search: string): MemberSignupQuery {
    const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
    const placement = (q.get('placement') ?? '').trim().slice(0, 100);
    const position = q.get('position');
    const slot = q.get('slot') ?? '';
    const recruit = Object.fromEntries(PREFILLED.map((k) => [k, (q.get(k) ?? '').trim().slice(0, 191)]).filter(([, v]) => v));
    return {
      ...(placement ? { placement } : {}),
      ...(position === 'L' || position === 'R' ? { position } : {}),
      ...(placement && /^[1-9]\d?$/.test(slot) ? { slot: Number(slot) } : {}),
      ...recruit,
    };
  },
  format(value: MemberSignupQuery): string {
    const q = new URLSearchParams();
    if (value.placement) q.set('placement', value.placement);
    if (value.position) q.set('position', value.position);
    if (value.slot) q.set('slot', String(value.slot));
    for (const k of PREFILLED) if (value[k]) q.set(k, value[k]!);
    const s = q.toString();
    return s ? `?${s}` : '';
  },
};

type SignupActor = Actor<typeof signupMachine>;
type PlacesActor = ActorRefFrom<typeof freePlacesListMachine>;
type Snap = ReturnType<SignupActor['getSnapshot']>;

const SHOWN = ['referral', 'first_name', 'last_name', 'email', 'mobile_code', 'mobile', 'username', 'password', 'password_confirmation', 'placement', 'position', 'slot', 'terms', 'otp', 'key'];

/** A free place as the select's value: 'ann7|L|1' (binary) or 'ann7||2' (matrix). */
export const placeValue = (p: Pick<FreePlace, 'placement' | 'position' | 'slot'>) => `${p.placement}|${p.position ?? ''}|${p.slot}`;

/**
 * The place the recruit goes to, picked from the free places of the member's tree (spill-over order in a
 * matrix); the first option leaves it to the plan's automatic placement. More places load page by page.
 */
function PlacePicker({ actor, snap, places }: { actor: SignupActor; snap: Snap; places: PlacesActor }) {
  const { t } = useTranslation(['network', 'common']);
  const list = useSelector(places, (s) => ({ items: s.context.items, more: s.context.next !== null, status: s.value as string, filters: s.context.filters }));
  const v = snap.context.values;
  const plan = snap.context.data?.compensation_plan ?? 'binary';
  const error = useFieldError(snap.context.fieldErrors);
  const leg = plan === 'binary' && (v.position === 'L' || v.position === 'R') ? v.position : null;
  const chosen = v.placement ? placeValue({ placement: v.placement, position: leg, slot: leg ? (leg === 'L' ? 1 : 2) : Number(v.slot || 0) }) : '';
  const label = (p: FreePlace) =>
    t(p.position ? 'freePlaces.binaryOption' : 'freePlaces.matrixOption', {
      placement: p.placement,
      name: p.placement_name,
      leg: p.position === 'L' ? t('tree.left') : t('tree.right'),
      slot: p.slot,
      level: p.level,
    });
  const options = [{ value: '', label: t('freePlaces.automatic') }, ...list.items.map((p) => ({ value: placeValue(p), label: label(p) }))];
  // A place from a link that the loaded pages do not hold (yet): shown as it is, so the choice is visible.
  if (chosen && !options.some((o) => o.value === chosen)) options.push({ value: chosen, label: v.placement });
  const pick = (value: string) => {
    const [placement = '', position = '', slot = ''] = value.split('|');
    actor.send({ type: 'signup.change', field: 'placement', value: placement });
    if (plan === 'binary') actor.send({ type: 'signup.change', field: 'position', value: position || (v.position ?? 'L') });
    else actor.send({ type: 'signup.change', field: 'slot', value: slot });
  };
  const loading = list.status === 'initialLoading' || list.status === 'loadingMore';
  const failed = list.status.startsWith('networkError') || list.status.startsWith('serverError');
  return (
    <Stack gap={6}>
      <NativeSelect
        label={t('freePlaces.label')}
        description={t(`plans.placementHelp.${plan}`)}
        data={options}
        value={chosen}
        onChange={(e) => pick(e.currentTarget.value)}
        error={error('placement') ?? error('slot')}
      />
      <Group gap="xs">
        {list.status === 'noItems' && (
          <Text size="sm" c="dimmed">
            {t('freePlaces.none')}
          </Text>
        )}
        {failed && (
          <Button size="xs" variant="light" color="red" onClick={() => places.send({ type: 'list.retry' })}>
            {t('freePlaces.retry')}
          </Button>
        )}
        {list.more && (
          <Button size="xs" variant="default" loading={loading} onClick={() => places.send({ type: 'list.loadMore' })}>
            {t('freePlaces.more')}
          </Button>
        )}
        {list.filters.placement && (
          <Button size="xs" variant="subtle" onClick={() => places.send({ type: 'list.setFilters', filters: {} })}>
            {t('freePlaces.all')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** The URL (under /member) each step belongs to. */
export function memberSignupStepPath(s: Pick<Snap, 'matches'>): string {
  if (s.matches('verify') || s.matches('verifying') || s.matches('resending')) return '/signup/otp';
  if (s.matches('success')) return '/signup/success';
  return '/signup';
}

function FormStep({ actor, snap, places }: { actor: SignupActor; snap: Snap; places?: PlacesActor }) {
  const { t } = useTranslation(['network', 'auth', 'common']);
  const c = snap.context;
  const d = c.data;
  const v = c.values;
  const error = useFieldError(c.fieldErrors);
  const rulesId = useId();
  const optional = (key: string) => `${t(key)} ${t('common:optional')}`;
  const change = (field: SignupField) => (value: string) => actor.send({ type: 'signup.change', field, value });
  const input = (field: SignupField) => ({
    value: v[field] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => change(field)(e.currentTarget.value),
    error: error(field),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'signup.submit' });
  };
  const plan = d?.compensation_plan ?? 'binary';
  return (
    <form noValidate onSubmit={submit} aria-label={t('memberSignup.title')}>
      <Stack gap="md">
        <TextInput label={t('memberSignup.sponsor')} description={t('memberSignup.sponsorHelp')} value={v.referral} readOnly />
        <TextInput label={t('auth:firstName')} autoComplete="off" {...input('first_name')} />
        <TextInput label={optional('auth:lastName')} autoComplete="off" {...input('last_name')} />
        <TextInput label={needsEmail(d) ? t('auth:email') : optional('auth:email')} type="email" autoComplete="off" {...input('email')} />
        <PhoneFields
          countries={d?.countries ?? []}
          code={v.mobile_code}
          mobile={v.mobile}
          onCode={change('mobile_code')}
          onMobile={change('mobile')}
          codeError={error('mobile_code')}
          mobileError={error('mobile')}
          mobileLabel={needsMobile(d) ? t('auth:mobile') : optional('auth:mobile')}
        />
        <TextInput label={optional('auth:username')} description={t('auth:usernameHelp')} autoComplete="off" autoCapitalize="none" spellCheck={false} {...input('username')} />
        <Stack gap={6}>
          <PasswordInput label={t('auth:password')} autoComplete="new-password" aria-describedby={rulesId} {...input('password')} />
          <PasswordChecklist id={rulesId} policy={d?.password_policy} password={v.password ?? ''} />
        </Stack>
        <PasswordInput label={t('auth:confirmPassword')} autoComplete="new-password" {...input('password_confirmation')} />
        {asksPlacement(d) && places && <PlacePicker actor={actor} snap={snap} places={places} />}
        {asksPlacement(d) && !places && (
          <TextInput
            label={optional('memberSignup.placement')}
            description={t(`plans.placementHelp.${plan}`)}
            autoCapitalize="none"
            spellCheck={false}
            {...input('placement')}
          />
        )}
        {asksPosition(d) && (!places || !v.placement) && (
          <div>
            <LabelledRadios
              label={t('auth:position')}
              value={v.position}
              onChange={(value) => actor.send({ type: 'signup.change', field: 'position', value })}
              options={[
                { value: 'L', label: t('auth:positionLeft') },
                { value: 'R', label: t('auth:positionRight') },
              ]}
            />
            {error('position') && (
              <Text size="xs" c="red" mt={4} role="alert">
                {error('position')}
              </Text>
            )}
          </div>
        )}
        {plan === 'unilevel' && <Text size="sm">{t('plans.placementHelp.unilevel')}</Text>}
        {asksTerms(d) && <TermsCheckbox actor={actor} snap={snap} error={error('terms')} />}
        <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
        <SubmitAlert problem={submitProblem(stepOf(snap, 'form') ? (snap.value as { form: { status: string } }).form.status : null)} retryAfter={c.retryAfter} />
        <Group>
          <Button type="submit" loading={snap.hasTag('busy')}>
            {t('memberSignup.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MemberVerifyStep({ actor, snap }: { actor: SignupActor; snap: Snap }) {
  const { t } = useTranslation('network');
  return <VerifyStep actor={actor} snap={snap} title={t('memberSignup.verifyTitle')} description={t('memberSignup.verifyText')} />;
}

function SuccessStep({ actor, snap }: { actor: SignupActor; snap: Snap }) {
  const { t } = useTranslation('network');
  const username = snap.context.result?.username ?? '';
  return (
    <Stack gap="md">
      <Text role="status">{t('memberSignup.done', { username })}</Text>
      <Group>
        <Button onClick={() => actor.send({ type: 'signup.again' })}>{t('memberSignup.again')}</Button>
        <Anchor component={Link} href={`/network/genealogy?username=${encodeURIComponent(username)}`}>
          {t('memberSignup.openGenealogy')}
        </Anchor>
      </Group>
    </Stack>
  );
}

export function MemberSignupView({ actor, url, places }: { actor: SignupActor; url: MemberSignupQuery; places?: PlacesActor }) {
  const { t } = useTranslation('network');
  const snap = useSelector(actor, (s) => s);
  const [location] = useLocation();
  // A "sign up here" link opened on a flow restored from earlier: the link's place wins, and a finished
  // signup starts over for the new recruit.
  const link = useRef<MemberSignupQuery | null>(url.placement || url.position || url.slot || PREFILLED.some((k) => url[k]) ? url : null);
  const inForm = snap.matches('form');
  const finished = snap.matches('success');
  useEffect(() => {
    const wanted = link.current;
    if (!wanted) return;
    if (finished) return void actor.send({ type: 'signup.again' });
    if (!inForm) return;
    link.current = null;
    const v = actor.getSnapshot().context.values;
    if (wanted.placement && wanted.placement !== v.placement) actor.send({ type: 'signup.change', field: 'placement', value: wanted.placement });
    if (wanted.position && wanted.position !== v.position) actor.send({ type: 'signup.change', field: 'position', value: wanted.position });
    if (wanted.slot && String(wanted.slot) !== v.slot) actor.send({ type: 'signup.change', field: 'slot', value: String(wanted.slot) });
    for (const k of PREFILLED) if (wanted[k] && wanted[k] !== v[k]) actor.send({ type: 'signup.change', field: k, value: wanted[k]! });
  }, [actor, inForm, finished]);

  const wanted = memberSignupStepPath(snap);
  if (location !== wanted && !(link.current && finished)) return <Redirect to={wanted} replace />;
  let body;
  if (snap.matches('form')) body = <FormStep actor={actor} snap={snap} places={places} />;
  else if (wanted === '/signup/otp') body = <MemberVerifyStep actor={actor} snap={snap} />;
  else if (snap.matches('success')) body = <SuccessStep actor={actor} snap={snap} />;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('memberSignup.title')}
      </Title>
      <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
        <Paper withBorder p="md" radius="md" maw={560}>
          {body}
        </Paper>
      </LoadStatus>
    </Stack>
  );
}
