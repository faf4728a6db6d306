import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import type { MailProvider } from '../../shared/constants';
import { type OrderDetails, resendMailBody } from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
import { useResendMailMutation } from './order-detail-api';

const emailForm = resendMailBody.pick({ email: true });

interface Props {
  order: OrderDetails;
  /** id of the e-mail input (each form on the page needs its own). */
  inputId: string;
  /** One button per way of sending: its label and the provider it goes through. */
  buttons: { label: string; provider: MailProvider; variant?: string }[];
}

/** An e-mail input prefilled with the order e-mail and buttons that send the approval mail again. */
export function MailResendForm({ order, inputId, buttons }: Props) {
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
      <Form.Group className="col-md-5" controlId={inputId}>
        <Form.Label visuallyHidden>Email</Form.Label>
        <Form.Control type="email" {...register('email')} isInvalid={!!errors.email} />
        <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
      </Form.Group>
      <div className="col-md-7 d-flex gap-2 flex-wrap">
        {buttons.map((b) => (
          <Button
            key={b.label}
            type="button"
            variant={b.variant ?? 'primary'}
            disabled={isLoading}
            onClick={send(b.provider)}
          >
            {b.label}
          </Button>
        ))}
      </div>
    </Form>
  );
}
