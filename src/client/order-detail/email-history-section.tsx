import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { MailHistoryItem, OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { downloadWithToken } from './authorized-files';
import { MailResendForm } from './mail-resend-form';
import { toastFailure } from './notify';
import { Section } from './section';

/** The mailed document as a link that downloads it (staff files need the token, so a button). */
function MailedDocument({ mail }: { mail: MailHistoryItem }) {
  const { uploadDoc, download_url: url } = mail;
  if (!uploadDoc) return <>-</>;
  if (!url) return <>{uploadDoc}</>;
  const download = async () => {
    const failure = await downloadWithToken(url, uploadDoc);
    if (failure) toastFailure(failure.httpStatus, failure.message);
  };
  return (
    <Button variant="link" size="sm" className="p-0 text-break text-start" onClick={download}>
      {uploadDoc}
    </Button>
  );
}

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
            <th>Sent To</th>
            <th>Result</th>
          </tr>
        </thead>
        <tbody>
          {order.mailHistory.map((mail, i) => (
            <tr key={mail.id}>
              <td>{i + 1}</td>
              <td>{mail.order_id}</td>
              <td>
                <MailedDocument mail={mail} />
              </td>
              <td>
                <DateTime value={mail.create_ts} />
              </td>
              <td>{mail.mail_service_provider}</td>
              <td>{mail.remainder_mail === 1 ? 'Yes' : 'No'}</td>
              <td className="text-break">
                {mail.to_email}
                {mail.other_recipient ? (
                  <Badge bg="warning" text="dark" className="ms-1">
                    not the order e-mail
                  </Badge>
                ) : null}
              </td>
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
