import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type GatewayChange, gatewayChange } from '../../shared/contracts/audit';
import { GATEWAY_MSG, type PaymentGateway, paymentGateway } from '../../shared/contracts/gateways';
import { MSG } from '../../shared/messages';
import { mockApi, ok, renderPage, signInAs } from '../test/fixtures';
import { Component, GATEWAY_READ_ONLY_NOTICE, switchQuestion } from './gateway-page';

const gateways: PaymentGateway[] = [
  paymentGateway.parse({ id: 1, gateway_name: 'Stripe', is_active: '1' }),
  paymentGateway.parse({ id: 2, gateway_name: 'Adyen', is_active: '0' }),
];
const changes: GatewayChange[] = [
  gatewayChange.parse({
    createdAt: '2026-11-20T14:00:00.000Z',
    actorName: 'Ann',
    actorEmail: 'ann@example.com',
    from: ['Adyen'],
    to: ['Stripe'],
  }),
];

function open(role: string, list: PaymentGateway[] = gateways) {
  signInAs(role);
  const sent = mockApi({
    'GET /api/admin/payment-gateways': () => ok(list),
    'GET /api/admin/payment-gateway-changes': () => ok(changes),
    'POST /api/admin/payment-gateway-setting': () => ok(undefined, GATEWAY_MSG.activated('Adyen')),
  });
  renderPage('/admin/gateway-setting', '/admin/gateway-setting', <Component />);
  return sent;
}

describe('Gateway Setting', () => {
  it('starts on the active gateway and switches after the confirmation', async () => {
    const user = userEvent.setup();
    const sent = open('Admin');
    await waitFor(() => expect(screen.getByTestId('active-gateway')).toHaveTextContent('Stripe'));
    const select = screen.getByLabelText('Payment Gateway');
    // The select is set to the active gateway by an effect after the render that shows its name.
    await waitFor(() => expect(select).toHaveValue('1'));
    expect(screen.getByTestId('gateway-changes')).toHaveTextContent('Ann switched Adyen → Stripe');

    await user.selectOptions(select, 'Adyen');
    await user.click(screen.getByRole('button', { name: 'Active Gateway' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(switchQuestion('Stripe', 'Adyen'));
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(GATEWAY_MSG.activated('Adyen'))).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ gatewayId: '2' });
  });

  it('asks for a gateway when none is chosen, on the field, and sends nothing', async () => {
    const user = userEvent.setup();
    const sent = open('Manager', [{ ...gateways[1]!, is_active: '0' }]);
    const select = await screen.findByLabelText('Payment Gateway');
    await screen.findByRole('option', { name: 'Adyen' });
    await user.click(screen.getByRole('button', { name: 'Active Gateway' }));
    expect(await screen.findByText(MSG.gatewayRequired)).toBeVisible();
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription(MSG.gatewayRequired);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('shows a Team member the gateways read-only', async () => {
    open('Team');
    expect(await screen.findByText(GATEWAY_READ_ONLY_NOTICE)).toBeInTheDocument();
    expect(await screen.findByRole('option', { name: 'Stripe' })).toBeInTheDocument();
    expect(screen.getByLabelText('Payment Gateway')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Active Gateway' })).toBeNull();
  });
});
