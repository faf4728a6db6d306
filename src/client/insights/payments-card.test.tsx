import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaymentsCard } from './payments-card';

describe('the disputes and refunds card of the insights', () => {
  it('shows disputes opened, won and lost, refunds through the provider, and the amounts per currency', () => {
    render(
      <PaymentsCard
        payments={{
          disputes: {
            opened: 4,
            won: 1,
            lost: 2,
            amounts: [{ currency: 'USD', disputed: '236.00 USD', lost: '118.00 USD' }],
          },
          refunds: {
            throughProvider: 7,
            outside: 1,
            failed: 2,
            amounts: [
              { currency: 'EUR', refunded: '59.00 EUR' },
              { currency: 'USD', refunded: '413.00 USD' },
            ],
          },
        }}
      />,
    );
    const card = screen.getByTestId('insights-payments');
    expect(card).toHaveTextContent('Disputes opened 4');
    expect(card).toHaveTextContent('Won 1');
    expect(card).toHaveTextContent('Lost 2');
    expect(card).toHaveTextContent('Refunds through the provider 7');
    const rows = within(card)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'CurrencyDisputedLostRefunded',
      'EUR--59.00 EUR',
      'USD236.00 USD118.00 USD413.00 USD',
    ]);
  });
});
