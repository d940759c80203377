import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { requestDemoMachine } from '../../src/machines/request-demo.machine';
import { RequestDemoSuccessView } from '../../src/views/public/request-demo-success.view';
import { RequestDemoView } from '../../src/views/public/request-demo.view';
import { DEMO_OPTIONS, apiError } from '../support/auth-flows';
import { startAuthFlow } from '../support/auth-flow-view';
import { renderUi } from '../support/render-ui';

function setup() {
  return startAuthFlow(requestDemoMachine, { sources: ['loadOptions', 'requestDemo'] });
}

async function loaded(view = RequestDemoView, lng = 'en') {
  const t = setup();
  const View = view;
  renderUi(<View actor={t.actor} />, { lng });
  await t.answer(() => t.ctl.resolve('loadOptions', DEMO_OPTIONS));
  return t;
}

describe('RequestDemoView', () => {
  it('loader, then connection error with retry', async () => {
    const t = setup();
    renderUi(<RequestDemoView actor={t.actor} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('loadOptions', apiError.connection()));
    expect(screen.getByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadOptions')).toHaveLength(2);
  });

  it('lists the loaded options in the optional selects', async () => {
    await loaded();
    const industry = screen.getByRole('combobox', { name: 'Industry (optional)' });
    expect([...(industry as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Not specified', 'Wellness', 'Cosmetics']);
    expect(screen.getByRole('combobox', { name: 'Country (optional)' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Compensation plan (optional)' })).toBeInTheDocument();
  });

  it('in Spanish the countries, industries and plans are Spanish (an unknown choice shows as the server sent it)', async () => {
    await loaded(RequestDemoView, 'es');
    const options = (name: string) => [...(screen.getByRole('combobox', { name }) as HTMLSelectElement).options].map((o) => o.text).slice(1);
    expect(options('País (opcional)')).toEqual(['España', 'Estados Unidos']);
    expect(options('Plan de compensación (opcional)')).toEqual(['Binario', 'Matriz']);
    expect(options('Sector (opcional)')).toEqual(['Wellness', 'Cosmetics']);
  });

  it('shows field errors before sending anything', async () => {
    const t = await loaded();
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'nope{Enter}');
    expect(screen.getByRole('textbox', { name: /Full name/ })).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('textbox', { name: /Mobile number/ })).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveAccessibleDescription('Enter a valid e-mail address.');
    expect(t.ctl.callsOf('requestDemo')).toHaveLength(0);
  });

  it('sends the typed values with platform web and the chosen options, then shows the thank-you page', async () => {
    const t = await loaded();
    await userEvent.type(screen.getByRole('textbox', { name: /Full name/ }), 'Ann Lee');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ann@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile number/ }), '+34 600 123 456');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Industry (optional)' }), 'Cosmetics');
    await userEvent.click(screen.getByRole('button', { name: 'Request demo' }));
    expect(screen.getByRole('button', { name: 'Request demo' })).toHaveAttribute('data-loading');
    expect(t.ctl.lastInput('requestDemo')).toEqual({
      name: 'Ann Lee',
      email: 'ann@example.com',
      mobile: '+34 600 123 456',
      platform: 'web',
      industry: 6,
    });
    await t.answer(() => t.ctl.resolve('send', { message: 'ok' }));
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/request-demo/success' });
    expect(screen.getByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
    expect(screen.getByText(/We will contact you at ann@example.com/)).toBeInTheDocument();
  });

  it('keeps the values and explains a server failure', async () => {
    const t = await loaded(RequestDemoSuccessView);
    await userEvent.type(screen.getByRole('textbox', { name: /Full name/ }), 'Ann');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ann@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile number/ }), '600123456{Enter}');
    await t.answer(() => t.ctl.reject('send', apiError.server()));
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong on our side');
    expect(screen.getByRole('textbox', { name: /Full name/ })).toHaveValue('Ann');
  });

  it('shows errors about fields the form does not have under the form', async () => {
    const t = await loaded();
    await userEvent.type(screen.getByRole('textbox', { name: /Full name/ }), 'Ann');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ann@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile number/ }), '600123456{Enter}');
    await t.answer(() => t.ctl.reject('send', apiError.validation({ _body: 'validation:malformedBody', email: 'validation:invalidEmail' })));
    expect(screen.getByRole('alert')).toHaveTextContent('The request could not be read. Please try again.');
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveAccessibleDescription('Enter a valid e-mail address.');
  });

  it('renders in Spanish', async () => {
    await loaded(RequestDemoView, 'es');
    expect(screen.getByRole('heading', { name: 'Solicita una demostración' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sector (opcional)' })).toBeInTheDocument();
  });
});
