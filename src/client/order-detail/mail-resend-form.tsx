import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { MailProvider } from '../../shared/constants';
import { type OrderDetails, resendMailBody } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
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
  } = useZodForm(emailForm, { defaultValues: { email: order.email } });

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
    <form noValidate className="row g-2 align-items-start" onSubmit={(e) => e.preventDefault()}>
      <TextField
        className="col-md-5"
        id={inputId}
        label="Email"
        labelClassName="visually-hidden"
        error={errors.email?.message}
        type="email"
        {...register('email')}
      />
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
    </form>
  );
}
