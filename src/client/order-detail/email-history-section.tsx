import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import type { MailProvider } from '../../shared/constants';
import { type OrderDetails, resendMailBody } from '../../shared/contracts/order-detail';
import { formatEstDateTime } from '../../shared/dates';
import { errorMessage } from '../app/api';
import { useResendMailMutation } from './order-detail-api';
import { Section } from './section';

const emailForm = resendMailBody.pick({ email: true });

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
      <ResendMailForm order={order} />
    </Section>
  );
}

function ResendMailForm({ order }: { order: OrderDetails }) {
  const [resendMail, { isLoading }] = useResendMailMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(emailForm), defaultValues: { email: order.email } });

  const send = (provider: MailProvider) =>
    handleSubmit(async ({ email }) => {
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
    <Form noValidate className="row g-2 align-items-start" onSubmit={(e) => e.preventDefault()}>
      <Form.Group className="col-md-5" controlId="resend-email">
        <Form.Label visuallyHidden>Email</Form.Label>
        <Form.Control type="email" {...register('email')} isInvalid={!!errors.email} />
        <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
      </Form.Group>
      <div className="col-md-7 d-flex gap-2 flex-wrap">
        <Button type="button" disabled={isLoading} onClick={send('AWS')}>
          Resend Mail (AWS)
        </Button>
        <Button type="button" variant="outline-primary" disabled={isLoading} onClick={send('Sendgrid')}>
          Resend Mail (Sendgrid)
        </Button>
      </div>
    </Form>
  );
}
