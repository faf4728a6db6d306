import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants';
import { type OrderDetails, resendMailBody } from '../../shared/contracts/order-detail';
import { formatEstDateTime } from '../../shared/dates';
import { MSG } from '../../shared/messages';
import { errorMessage } from '../app/api';
import { useResendMailMutation } from './order-detail-api';
import { Section } from './section';

const emailForm = resendMailBody.pick({ email: true });

/** Customer downloads (EST) and a Sent Mail button that mails the approved document again. */
export function DownloadHistorySection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Download History">
      <Table responsive bordered size="sm" className="align-middle">
        <thead>
          <tr>
            <th>#</th>
            <th>Order ID</th>
            <th>Date &amp; Time</th>
            <th>Downloaded File</th>
            <th>IP Address</th>
            <th>Location</th>
          </tr>
        </thead>
        <tbody>
          {order.downloadHistory.length === 0 ? (
            <tr>
              <td colSpan={6} className="text-center text-muted">
                {MSG.noRecord}
              </td>
            </tr>
          ) : (
            order.downloadHistory.map((row, i) => (
              <tr key={row.id}>
                <td>{i + 1}</td>
                <td>{row.order_id}</td>
                <td>{formatEstDateTime(row.create_ts)} EST</td>
                <td>{row.file_name ?? '-'}</td>
                <td>{row.ip}</td>
                <td>{row.location || '-'}</td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <SentMailForm order={order} />
    </Section>
  );
}

function SentMailForm({ order }: { order: OrderDetails }) {
  const [resendMail, { isLoading }] = useResendMailMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(emailForm), defaultValues: { email: order.email } });
  // The provider the document last went out with (see docs/decisions/041).
  const provider: MailProvider =
    MAIL_PROVIDERS.find((p) => p === order.uploadDoc[0]?.mail_service_provider) ?? 'AWS';

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      const res = await resendMail({
        orderId: order.order_id,
        email,
        mailServiceProvider: provider,
      }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  return (
    <Form noValidate className="row g-2 align-items-start" onSubmit={onSubmit}>
      <Form.Group className="col-md-5" controlId="sent-mail-email">
        <Form.Label visuallyHidden>Email</Form.Label>
        <Form.Control type="email" {...register('email')} isInvalid={!!errors.email} />
        <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
      </Form.Group>
      <div className="col-md-7">
        <Button type="submit" disabled={isLoading}>
          Sent Mail
        </Button>
      </div>
    </Form>
  );
}
