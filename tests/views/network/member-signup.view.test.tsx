import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { signupMachine, type SignupInput } from '../../../src/machines/signup.machine';
import type { SignupData } from '../../../src/schemas/auth.schema';
import { MemberSignupView, memberSignupCodec } from '../../../src/views/network/member-signup.view';
import { apiError, flush, signupData, signupResponse, startControlledFlow } from '../../support/auth-flows';
import { renderUi } from '../../support/render-ui';
import { act } from '@testing-library/react';
import { createActor } from 'xstate';
import { createPagedListMachine } from '../../../src/machines/paged-list.machine';
import type { FreePlace } from '../../../src/schemas/network.schema';

const SOURCES = ['loadSignupData', 'validateReferral', 'signup', 'verifySignup', 'resendSignupVerification'];

function setup(search = '?placement=ann7&position=R', lng = 'en') {
  const url = memberSignupCodec.parse(search);
  const flow = startControlledFlow(signupMachine, {
    sources: SOURCES,
    silentTicker: true,
    input: { search: '', basePath: '/member/signup', member: { placement: url.placement ?? null, position: url.position ?? null } } as SignupInput,
  });
  const memory = memoryLocation({ path: '/signup', record: true });
  renderUi(
    <Router hook={memory.hook}>
      <MemberSignupView actor={flow.actor} url={url} />
    </Router>,
    { lng },
  );
  const answer = async (fn: () => void) => {
    await act(async () => {
      fn();
      await flush();
    });
  };
  return { ...flow, memory, answer };
}

type T = ReturnType<typeof setup>;
const loaded = (t: T, data: SignupData) => t.answer(() => t.ctl.resolve('loadData', { data, phoneCode: '34', storeRegisterUrl: null }));
const ready = async (t: T, data: SignupData) => {
  await loaded(t, data);
  await t.answer(() => t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 2 }));
};
const MEMBER = { default_sponsor: 'demo', otp_verification: true, otp_based_on: 'email' as const, company_terms_url: null, company_privacy_url: null };

async function fillRecruit() {
  await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Rita');
  await userEvent.type(screen.getByRole('textbox', { name: /^E-mail/ }), 'rita@example.org');
  await userEvent.type(screen.getByLabelText('Password'), 'Recruit-pass-1');
  await userEvent.type(screen.getByLabelText('Confirm password'), 'Recruit-pass-1');
}

describe('MemberSignupView', () => {
  it('shows the loader, then a server error and a connection error, each with a retry', async () => {
    const t = setup();
    expect(screen.getByRole('status')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('loadData', apiError.server()));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await t.answer(() => t.ctl.reject('loadData', apiError.connection()));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadSignupData')).toHaveLength(3);
  });

  it('binary: the member is the fixed sponsor, the empty slot fills placement and position; a code step follows, then success', async () => {
    const t = setup();
    await ready(t, signupData({ ...MEMBER, compensation_plan: 'binary' }));
    expect(screen.getByRole('heading', { name: 'Register a member' })).toBeInTheDocument();
    const sponsor = screen.getByRole('textbox', { name: 'Sponsor' });
    expect(sponsor).toHaveValue('demo');
    expect(sponsor).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: /Placement/ })).toHaveValue('ann7');
    expect(screen.getByRole('radio', { name: 'Right' })).toBeChecked();
    await fillRecruit();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(t.ctl.lastInput('signup')).toMatchObject({ referral: 'demo', placement: 'ann7', position: 'R', first_name: 'Rita', email: 'rita@example.org' });
    await t.answer(() => t.ctl.resolve('signup', signupResponse({ username: 'rita55', otp_required: true, destination: 'r***@example.org' })));
    expect(t.memory.history?.at(-1)).toBe('/signup/otp');
    expect(screen.getByText(/r\*\*\*@example.org/)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /code/i }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify code' }));
    expect(t.ctl.lastInput('verifySignup')).toEqual({ key: 'key-abc', otp: '123456' });
    await t.answer(() => t.ctl.resolve('verify', { message: 'ok' }));
    expect(t.memory.history?.at(-1)).toBe('/signup/success');
    expect(screen.getByRole('status')).toHaveTextContent('rita55 is now a member of your team');
    expect(screen.getByRole('link', { name: 'See them in the genealogy' })).toHaveAttribute('href', '/network/genealogy?username=rita55');
    await userEvent.click(screen.getByRole('button', { name: 'Register another member' }));
    expect(t.snap().matches('loading')).toBe(true);
    expect(t.memory.history?.at(-1)).toBe('/signup');
  });

  it('a taken place, a server error and a lost connection on submit keep what was typed', async () => {
    const t = setup();
    await ready(t, signupData({ ...MEMBER, otp_verification: false, compensation_plan: 'binary' }));
    await fillRecruit();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await t.answer(() => t.ctl.reject('signup', apiError.validation({ placement: 'validation:placementUnavailable' })));
    expect(screen.getByText('This placement is not available.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await t.answer(() => t.ctl.reject('signup', apiError.server()));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await t.answer(() => t.ctl.reject('signup', apiError.connection()));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Rita');
  });

  it('matrix asks a placement (spill-over help) and no position; a slot number in the link is not a position', async () => {
    const t = setup('?placement=ann7&position=2');
    await ready(t, signupData({ ...MEMBER, compensation_plan: 'matrix', default_leg: null }));
    expect(screen.getByRole('textbox', { name: /Placement/ })).toHaveValue('ann7');
    expect(screen.getByText(/first free place, level by level/)).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
  });

  it('unilevel asks neither placement nor position', async () => {
    const t = setup('');
    await ready(t, signupData({ ...MEMBER, compensation_plan: 'unilevel', default_leg: null }));
    expect(screen.queryByRole('textbox', { name: /Placement/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.getByText('In a unilevel plan new members go directly under you.')).toBeInTheDocument();
  });

  it("a CRM recruit lead's link prefills the recruit's name, e-mail and mobile", async () => {
    const { recruitSignupLink } = await import('../../../src/views/crm/leads.view');
    const link = recruitSignupLink({ name: ' Ana María  López ', email: 'ana@example.com', phone: '34600111222' });
    expect(memberSignupCodec.parse(link.slice('/signup'.length))).toEqual({ first_name: 'Ana', last_name: 'María López', email: 'ana@example.com', mobile: '34600111222' });
    const t = setup(link.slice('/signup'.length));
    await ready(t, signupData({ ...MEMBER, compensation_plan: 'unilevel', default_leg: null }));
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Ana');
    expect(screen.getByRole('textbox', { name: /^Last name/ })).toHaveValue('María López');
    expect(screen.getByRole('textbox', { name: /^E-mail/ })).toHaveValue('ana@example.com');
    expect(t.actor.getSnapshot().context.values).toMatchObject({ first_name: 'Ana', last_name: 'María López', email: 'ana@example.com', mobile: '34600111222' });
  });

  it("asks to accept the company's terms when it has them", async () => {
    const t = setup();
    await ready(t, signupData({ ...MEMBER, otp_verification: false, company_terms_url: 'https://upline.example/terms', compensation_plan: 'binary' }));
    await fillRecruit();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(t.ctl.callsOf('signup')).toHaveLength(0);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(t.ctl.callsOf('signup')).toHaveLength(1);
  });

  it('a "sign up here" link opened after a finished signup starts over with the link\'s place', async () => {
    const url = memberSignupCodec.parse('?placement=bob9&position=L');
    const flow = startControlledFlow(signupMachine, { sources: SOURCES, silentTicker: true, input: { search: '', basePath: '/member/signup', member: {} } as SignupInput });
    await flush();
    flow.ctl.resolve('loadData', { data: signupData({ ...MEMBER, otp_verification: false }), phoneCode: '34', storeRegisterUrl: null });
    await flush();
    flow.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 2 });
    await flush();
    for (const [field, value] of Object.entries({ first_name: 'Ann', email: 'a@example.org', password: 'Good-pass1', password_confirmation: 'Good-pass1' }))
      flow.actor.send({ type: 'signup.change', field: field as 'first_name', value });
    flow.actor.send({ type: 'signup.submit' });
    flow.ctl.resolve('signup', signupResponse({ otp_required: false, key: null }));
    await flush();
    expect(flow.snap().matches('success')).toBe(true);
    const memory = memoryLocation({ path: '/signup', record: true });
    renderUi(
      <Router hook={memory.hook}>
        <MemberSignupView actor={flow.actor} url={url} />
      </Router>,
    );
    expect(flow.snap().matches('loading')).toBe(true);
    await act(async () => {
      flow.ctl.resolve('loadData', { data: signupData({ ...MEMBER, otp_verification: false }), phoneCode: '34', storeRegisterUrl: null });
      await flush();
    });
    expect(screen.getByRole('textbox', { name: /Placement/ })).toHaveValue('bob9');
    expect(screen.getByRole('radio', { name: 'Left' })).toBeChecked();
  });

  it('speaks Spanish', async () => {
    const t = setup('', 'es');
    await ready(t, signupData({ ...MEMBER, compensation_plan: 'binary' }));
    const form = screen.getByRole('form', { name: 'Registrar un miembro' });
    expect(within(form).getByRole('textbox', { name: 'Patrocinador' })).toHaveValue('demo');
    expect(within(form).getByRole('button', { name: 'Registrar' })).toBeInTheDocument();
  });
});

describe('MemberSignupView with the free places to pick from', () => {
  const page1 = [
    { placement: 'demo', placement_name: 'Dana Demo', position: null, slot: 3, level: 1 },
    { placement: 'ann7', placement_name: 'Ann Lee', position: null, slot: 1, level: 2 },
  ];
  const page2 = [{ placement: 'ann7', placement_name: 'Ann Lee', position: null, slot: 2, level: 2 }];

  function setupWithPlaces(search: string) {
    const url = memberSignupCodec.parse(search);
    const asked: Array<{ placement?: string; after?: string }> = [];
    const places = createActor(
      createPagedListMachine<FreePlace, { placement?: string }>('freePlacesTest', async ({ filters, next }) => {
        asked.push({ ...filters, ...(next?.after ? { after: next.after } : {}) });
        return next?.after ? { items: page2, next: null } : { items: page1, next: { after: '5.0' } };
      }),
      { input: { filters: url.placement ? { placement: url.placement } : {} } },
    ).start();
    const flow = startControlledFlow(signupMachine, {
      sources: SOURCES,
      silentTicker: true,
      input: { search: '', basePath: '/member/signup', member: { placement: url.placement ?? null, position: url.position ?? null, slot: url.slot ?? null } } as SignupInput,
    });
    renderUi(
      <Router hook={memoryLocation({ path: '/signup' }).hook}>
        <MemberSignupView actor={flow.actor} url={url} places={places} />
      </Router>,
    );
    const answer = async (fn: () => void) => {
      await act(async () => {
        fn();
        await flush();
      });
    };
    return { ...flow, answer, asked, places };
  }

  it('matrix: the places in the server’s spill-over order, more on demand; the one picked is sent with its number', async () => {
    const t = setupWithPlaces('');
    await t.answer(() => t.ctl.resolve('loadData', { data: signupData({ ...MEMBER, otp_verification: false, compensation_plan: 'matrix', default_leg: null }), phoneCode: '34', storeRegisterUrl: null }));
    await t.answer(() => t.ctl.resolve('validateReferral', { default_leg: null, referral_id: 2 }));
    const select = await screen.findByRole('combobox', { name: 'Place' });
    await screen.findByRole('option', { name: 'Under ann7 (Ann Lee), place 1 — level 2' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      "Automatic: the plan's next free place",
      'Under demo (Dana Demo), place 3 — level 1',
      'Under ann7 (Ann Lee), place 1 — level 2',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'More places' }));
    await screen.findByRole('option', { name: 'Under ann7 (Ann Lee), place 2 — level 2' });
    expect(t.asked).toEqual([{}, { after: '5.0' }]);
    expect(screen.queryByRole('button', { name: 'More places' })).not.toBeInTheDocument();

    await userEvent.selectOptions(select, 'Under ann7 (Ann Lee), place 2 — level 2');
    await fillRecruit();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(t.ctl.lastInput('signup')).toMatchObject({ placement: 'ann7', slot: 2 });
    // Taken meanwhile by another signup: the field error on the list, everything typed kept.
    await t.answer(() => t.ctl.reject('signup', apiError.validation({ placement: 'validation:placementUnavailable' })));
    expect(screen.getByText('This placement is not available.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Rita');
    // Automatic again: no placement and no number are sent.
    await userEvent.selectOptions(select, "Automatic: the plan's next free place");
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(t.ctl.lastInput('signup')).not.toHaveProperty('placement');
    expect(t.ctl.lastInput('signup')).not.toHaveProperty('slot');
  });

  it('binary: the genealogy’s empty slot is the place picked, narrowed to that member; the whole list on demand', async () => {
    const t = setupWithPlaces('?placement=ann7&position=R');
    await t.answer(() => t.ctl.resolve('loadData', { data: signupData({ ...MEMBER, compensation_plan: 'binary' }), phoneCode: '34', storeRegisterUrl: null }));
    await t.answer(() => t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 2 }));
    const select = await screen.findByRole('combobox', { name: 'Place' });
    expect(t.asked[0]).toEqual({ placement: 'ann7' });
    expect((select as HTMLSelectElement).value).toBe('ann7|R|2');
    // The leg radios are for automatic placement only.
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'All free places' }));
    await flush();
    expect(t.asked.at(-1)).toEqual({});
  });
});
