import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { MailHistoryItem, OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { column, DataTable } from '../components/list-kit/data-table';
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

type Mail = OrderDetails['mailHistory'][number];
const MAIL_COLUMNS = [
  column<Mail>('#', (_, i) => i + 1),
  column<Mail>('Order ID', (mail) => mail.order_id),
  column<Mail>('Download', (mail) => <MailedDocument mail={mail} />),
  column<Mail>('Date & Time', (mail) => <DateTime value={mail.create_ts} />),
  column<Mail>('Mail Provider', (mail) => mail.mail_service_provider),
  column<Mail>('Remainder Mail', (mail) => (mail.remainder_mail === 1 ? 'Yes' : 'No')),
  column<Mail>(
    'Sent To',
    (mail) => (
      <>
        {mail.to_email}
        {mail.other_recipient ? (
          <Badge bg="warning" text="dark" className="ms-1">
            not the order e-mail
          </Badge>
        ) : null}
      </>
    ),
    { meta: { className: 'text-break' } },
  ),
  column<Mail>('Result', (mail) => (
    <span title={mail.bounce_reason ?? mail.error ?? mail.message_id ?? undefined}>
      {mail.status}
      {mail.bounce_reason ? `: ${mail.bounce_reason}` : ''}
      {mail.attempts > 1 ? ` (${mail.attempts} attempts)` : ''}
    </span>
  )),
];
const byId = (row: { id: number }) => String(row.id);

/** Mail history with Resend Mail (AWS) / (Sendgrid); the whole section shows only once a mail exists. */
export function EmailHistorySection({ order }: { order: OrderDetails }) {
  if (order.mailHistory.length === 0) return null;
  return (
    <Section title="Email History">
      <DataTable
        rows={order.mailHistory}
        columns={MAIL_COLUMNS}
        rowId={byId}
        className="table table-sm table-bordered align-middle"
        wrapClassName="table-responsive"
        empty={null}
      />
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
