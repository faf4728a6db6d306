import Table from 'react-bootstrap/Table';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { formatEstDateTime } from '../../shared/dates';
import { MailResendForm } from './mail-resend-form';
import { Section } from './section';

/** Mail history with Resend Mail (AWS) / (Sendgrid); the whole section shows only once a mail exists. */
export function EmailHistorySection({ order }: { order: OrderDetails }) {
  if (order.mailHistory.length === 0) return null;
  return (
    <Section title="Email History">
      <Table responsive bordered size="sm" className="align-middle">
        <thead>
          <tr>
            <th>#</th>
            <th>Order ID</th>
            <th>Download</th>
            <th>Date &amp; Time</th>
            <th>Mail Provider</th>
            <th>Remainder Mail</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {order.mailHistory.map((mail, i) => (
            <tr key={mail.id}>
              <td>{i + 1}</td>
              <td>{mail.order_id}</td>
              <td>{mail.uploadDoc ?? '-'}</td>
              <td>{formatEstDateTime(mail.create_ts)} EST</td>
              <td>{mail.mail_service_provider}</td>
              <td>{mail.remainder_mail === 1 ? 'Yes' : 'No'}</td>
              <td title={mail.error ?? mail.message_id ?? undefined}>
                {mail.status}
                {mail.attempts > 1 ? ` (${mail.attempts} attempts)` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <MailResendForm
        order={order}
        inputId="resend-email"
        buttons={[
          { label: 'Resend Mail (AWS)', provider: 'AWS' },
          { label: 'Resend Mail (Sendgrid)', provider: 'Sendgrid', variant: 'outline-primary' },
        ]}
      />
    </Section>
  );
}
