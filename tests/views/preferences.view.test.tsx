import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { SubmitInput } from '../../src/machines/form.machine';
import { preferencesMachine } from '../../src/machines/preferences.machine';
import type { User } from '../../src/schemas/common.schema';
import type { PreferencesRequest } from '../../src/schemas/preferences.schema';
import { PreferencesView } from '../../src/views/home/preferences.view';
import { renderUi } from '../support/render-ui';

const languages = [
  { code: 'en', native_name: 'English' },
  { code: 'es', native_name: 'Español' },
];
const currencies = [
  { code: 'USD', name: 'US Dollar', symbol: '$' },
  { code: 'EUR', name: 'Euro', symbol: '€' },
];

function setup(save: (v: PreferencesRequest) => Promise<User>) {
  const sent: PreferencesRequest[] = [];
  const applied: PreferencesRequest[] = [];
  const actor = createActor(
    preferencesMachine.provide({
      actors: {
        submit: fromPromise(({ input }) => {
          const { values } = input as SubmitInput<PreferencesRequest, never>;
          sent.push(values);
          return save(values);
        }),
      },
      actions: { apply: (_, p) => applied.push(p.values) },
    }),
  ).start();
  const onLanguage = vi.fn();
  renderUi(<PreferencesView actor={actor} languages={languages} currencies={currencies} language="en" currency="USD" dateFormat="M d, Y h:i A" onLanguage={onLanguage} />);
  return { sent, applied, onLanguage };
}

const savedUser = async () => ({ id: 1 }) as unknown as User;

describe('display preferences page', () => {
  it('shows the current language, currency and date format, with a sample of each format', () => {
    setup(savedUser);
    expect(screen.getByRole('heading', { name: 'Display preferences' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveValue('USD');
    expect(screen.getByRole('option', { name: 'EUR — Euro (€)' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Date format' })).toHaveValue('M d, Y h:i A');
    expect(screen.getByRole('option', { name: 'Mar 09, 2026 02:05 PM' })).toBeInTheDocument();
  });

  it('the language goes to the session; currency and date format are saved and applied', async () => {
    const { sent, applied, onLanguage } = setup(savedUser);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'es');
    expect(onLanguage).toHaveBeenCalledWith('es');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'EUR');
    await vi.waitFor(() => expect(applied).toEqual([{ currency: 'EUR' }]));
    expect(sent).toEqual([{ currency: 'EUR' }]);
    const format = screen.getByRole('combobox', { name: 'Date format' });
    const other = Array.from((format as HTMLSelectElement).options).find((o) => o.value !== 'M d, Y h:i A')!.value;
    await userEvent.selectOptions(format, other);
    await vi.waitFor(() => expect(applied).toEqual([{ currency: 'EUR' }, { date_format: other }]));
  });

  it('while saving the switches are disabled and "Saving…" is announced', async () => {
    setup(() => new Promise<never>(() => {}));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'EUR');
    expect(await screen.findByRole('status')).toHaveTextContent('Saving…');
    expect(screen.getByRole('combobox', { name: 'Currency' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Date format' })).toBeDisabled();
  });

  it('a connection error says nothing was saved; Retry sends the same choice again', async () => {
    let fail = true;
    const { sent, applied } = setup(async () => {
      if (fail) throw new ConnectionError();
      return savedUser();
    });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'EUR');
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not reach the server. Your choice was not saved.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(applied).toEqual([{ currency: 'EUR' }]));
    expect(sent).toEqual([{ currency: 'EUR' }, { currency: 'EUR' }]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a server error offers Retry; a refused choice only Dismiss', async () => {
    let failure: Error = new ApiError('server', 500, {});
    setup(async () => {
      throw failure;
    });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'EUR');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side. Your choice was not saved.');
    failure = new ApiError('badRequest', 422, { error_code: 'validation_error', message: 'invalid', errors: { currency: ['validation:invalid'] } });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('That choice is not available.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
