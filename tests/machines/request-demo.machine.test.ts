import { createActor } from 'xstate';
import { requestDemoApi } from '../../src/api/public-flows';
import { requestDemoMachine, type RequestDemoField } from '../../src/machines/request-demo.machine';
import { DEMO_OPTIONS, apiError, flush, startControlledFlow } from '../support/auth-flows';

function start(path?: string) {
  return startControlledFlow(requestDemoMachine, { sources: ['loadOptions', 'requestDemo'], input: { search: '', path } });
}

async function loaded(path?: string) {
  const t = start(path);
  t.ctl.resolve('loadOptions', DEMO_OPTIONS);
  await flush();
  return t;
}

function fill(t: Awaited<ReturnType<typeof loaded>>, values: Partial<Record<RequestDemoField, string>>) {
  for (const [field, value] of Object.entries(values)) t.actor.send({ type: 'demo.change', field: field as RequestDemoField, value: value as string });
}

describe('request demo machine', () => {
  it('loads the options, then shows the form', async () => {
    const t = start();
    expect(t.snap().hasTag('busy')).toBe(true);
    t.ctl.resolve('loadOptions', DEMO_OPTIONS);
    await flush();
    expect(t.snap().matches({ form: 'editing' })).toBe(true);
    expect(t.snap().context.options).toEqual(DEMO_OPTIONS);
  });

  it('load failures offer a retry', async () => {
    const t = start();
    t.ctl.reject('loadOptions', apiError.connection());
    await flush();
    expect(t.snap().matches('connectionError')).toBe(true);
    t.actor.send({ type: 'load.retry' });
    t.ctl.reject('loadOptions', apiError.server());
    await flush();
    expect(t.snap().matches('serverError')).toBe(true);
  });

  it('checks name, e-mail and mobile before sending', async () => {
    const t = await loaded();
    fill(t, { email: 'bad', mobile: '12' });
    t.actor.send({ type: 'demo.submit' });
    expect(t.snap().matches({ form: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors).toEqual({
      name: 'validation:required',
      email: 'validation:invalidEmail',
      mobile: 'validation:invalidMobile',
    });
    expect(t.ctl.callsOf('requestDemo')).toHaveLength(0);
  });

  it('sends the required fields with platform web, and the optional choices only when chosen', async () => {
    const t = await loaded();
    fill(t, { name: ' Ann Lee ', email: 'ann@example.com', mobile: '+34 600 123 456' });
    t.actor.send({ type: 'demo.submit' });
    expect(t.ctl.lastInput('requestDemo')).toEqual({ name: 'Ann Lee', email: 'ann@example.com', mobile: '+34 600 123 456', platform: 'web' });
    t.ctl.reject('send', apiError.server());
    await flush();
    expect(t.snap().matches({ form: 'serverError' })).toBe(true);
    fill(t, { country_id: '2', industry: '5', compensation_plan: '1' });
    t.actor.send({ type: 'demo.submit' });
    expect(t.ctl.lastInput('requestDemo')).toEqual({
      name: 'Ann Lee',
      email: 'ann@example.com',
      mobile: '+34 600 123 456',
      platform: 'web',
      country_id: 2,
      industry: 5,
      compensation_plan: 1,
    });
    t.ctl.resolve('send', { message: 'ok' });
    await flush();
    expect(t.snap().matches('success')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/request-demo/success' });
  });

  it.each([
    ['invalid', apiError.validation({ email: 'validation:invalidEmail' })],
    ['rateLimited', apiError.rateLimited(8)],
    ['connectionError', apiError.connection()],
  ] as const)('a %s answer keeps the form and the values', async (state, error) => {
    const t = await loaded();
    fill(t, { name: 'Ann', email: 'ann@example.com', mobile: '600123456' });
    t.actor.send({ type: 'demo.submit' });
    t.ctl.reject('send', error);
    await flush();
    expect(t.snap().matches({ form: state })).toBe(true);
    expect(t.snap().context.values.name).toBe('Ann');
    if (state === 'invalid') expect(t.snap().context.fieldErrors.email).toBe('validation:invalidEmail');
    if (state === 'rateLimited') expect(t.snap().context.retryAfter).toBe(8);
  });

  it('Back from the success page returns to the form with the values', async () => {
    const t = await loaded();
    fill(t, { name: 'Ann', email: 'ann@example.com', mobile: '600123456' });
    t.actor.send({ type: 'demo.submit' });
    t.ctl.resolve('send', { message: 'ok' });
    await flush();
    t.actor.send({ type: 'route.changed', path: '/request-demo', search: '' });
    expect(t.snap().matches('form')).toBe(true);
    expect(t.snap().context.values.name).toBe('Ann');
    t.actor.send({ type: 'route.changed', path: '/request-demo/success', search: '' });
    expect(t.snap().matches('form')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/request-demo', replace: true });
  });

  it('the success page opened directly starts over on the form', async () => {
    const t = await loaded('/request-demo/success');
    expect(t.navigate).toHaveBeenCalledWith({ to: '/request-demo', replace: true });
  });

  it('the real actors call GET and POST /api/request_demo', async () => {
    vi.spyOn(requestDemoApi, 'requestDemoOptions').mockResolvedValue(DEMO_OPTIONS);
    const send = vi.spyOn(requestDemoApi, 'requestDemo').mockResolvedValue({ message: 'ok' });
    const actor = createActor(requestDemoMachine, { input: { search: '' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('form')).toBe(true));
    actor.send({ type: 'demo.change', field: 'name', value: 'Ann' });
    actor.send({ type: 'demo.change', field: 'email', value: 'ann@example.com' });
    actor.send({ type: 'demo.change', field: 'mobile', value: '600123456' });
    actor.send({ type: 'demo.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('success')).toBe(true));
    expect(send).toHaveBeenCalledWith({ name: 'Ann', email: 'ann@example.com', mobile: '600123456', platform: 'web' });
    vi.restoreAllMocks();
  });
});
