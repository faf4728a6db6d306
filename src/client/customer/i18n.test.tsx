import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY, pageLanguage } from './i18n';
import { Component as TrackPage } from './track-page';

/** The browser's preferred languages (navigator.languages). */
const browserPrefers = (languages: string[]) =>
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the page language', () => {
  it('is ?lang= first, then the remembered choice, then the browser, then English', () => {
    browserPrefers(['de-DE', 'nl-NL', 'es']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pt');
    expect(pageLanguage('?lang=pap')).toEqual({ language: 'pap', chosen: true });
    expect(pageLanguage('')).toEqual({ language: 'pap', chosen: true }); // ?lang= was remembered
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'pt');
    expect(pageLanguage('?lang=klingon')).toEqual({ language: 'pt', chosen: true });
    localStorage.clear();
    expect(pageLanguage('')).toEqual({ language: 'nl', chosen: false });
    browserPrefers(['de', 'fr']);
    expect(pageLanguage('')).toEqual({ language: 'en', chosen: false });
  });

  it('ignores hostile ?lang= and stored values', () => {
    browserPrefers(['es']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, '<script>');
    for (const lang of ['%00es', 'es%00', 'x'.repeat(5000), '__proto__']) {
      expect(pageLanguage(`?lang=${lang}`)).toEqual({ language: 'es', chosen: false });
    }
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('<script>');
  });
});

describe('the track page in a chosen language', () => {
  const open = () => {
    const router = createMemoryRouter([{ path: '/track-order/:orderId?', element: <TrackPage /> }], {
      initialEntries: ['/track-order'],
    });
    render(<RouterProvider router={router} />);
  };

  it('loads the language of ?lang= and switches with the picker, remembering the choice', async () => {
    browserPrefers(['en-US']);
    window.history.replaceState(null, '', '/track-order?lang=es');
    open();
    expect(
      await screen.findByRole('heading', { name: 'Descargue su Tarjeta de Embarque y Desembarque de Aruba' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'BUSCAR PEDIDO' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
    const picker = screen.getByRole('combobox', { name: 'Idioma' });
    expect(picker).toHaveValue('es');

    await userEvent.setup().selectOptions(picker, 'nl');
    expect(await screen.findByRole('button', { name: 'BESTELLING VOLGEN' })).toBeInTheDocument();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('nl');
    await waitFor(() => expect(document.documentElement.lang).toBe('nl'));
  });

  it("shows the form checks' messages in the page language", async () => {
    browserPrefers(['pt-BR']);
    open();
    const submit = await screen.findByRole('button', { name: 'ACOMPANHAR PEDIDO' });
    await userEvent.setup().click(submit);
    expect(await screen.findByText('Informe o número do pedido')).toBeInTheDocument();
    expect(screen.getByText('Informe o seu e-mail')).toBeInTheDocument();
  });

  it('stays in English for an English browser', async () => {
    browserPrefers(['en-GB', 'es']);
    open();
    expect(await screen.findByRole('button', { name: 'TRACK ORDER' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
  });
});
