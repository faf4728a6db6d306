import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import { sendInvoiceForm } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { useSendInvoiceMutation } from './invoices-api';

/** /admin/send-invoice: one Order ID field; status 1 success toast, anything else an error toast. */
export function Component() {
  const [sendInvoice, { isLoading }] = useSendInvoiceMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useZodForm(sendInvoiceForm, { defaultValues: { invoiceOrderId: '' } });

  const onSubmit = handleSubmit(async ({ invoiceOrderId }) => {
    try {
      const res = await sendInvoice({ orderId: invoiceOrderId }).unwrap();
      if (res.status === 1) {
        toast.success(res.message);
        reset();
      } else {
        toast.error(res.message);
      }
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  return (
    <div className="p-3">
      <Card className="shadow-sm" style={{ maxWidth: 520 }}>
        <Card.Header as="h1" className="h5 mb-0">
          Send Invoice
        </Card.Header>
        <Card.Body>
          <form noValidate onSubmit={onSubmit}>
            <TextField
              id="invoiceOrderId"
              className="mb-3"
              label="Order ID"
              error={errors.invoiceOrderId?.message}
              inputMode="numeric"
              autoComplete="off"
              {...register('invoiceOrderId')}
            />
            <Button type="submit" disabled={isLoading}>
              Send Invoice
            </Button>
          </form>
        </Card.Body>
      </Card>
    </div>
  );
}
