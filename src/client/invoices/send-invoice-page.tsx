import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { type SendInvoiceForm, sendInvoiceForm } from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
import { useSendInvoiceMutation } from './invoices-api';

/** /admin/send-invoice: one Order ID field; status 1 success toast, anything else an error toast. */
export function Component() {
  const [sendInvoice, { isLoading }] = useSendInvoiceMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<SendInvoiceForm>({
    resolver: zodResolver(sendInvoiceForm),
    defaultValues: { invoiceOrderId: '' },
  });

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
          <Form noValidate onSubmit={onSubmit}>
            <Form.Group controlId="invoiceOrderId" className="mb-3">
              <Form.Label>Order ID</Form.Label>
              <Form.Control
                inputMode="numeric"
                autoComplete="off"
                {...register('invoiceOrderId')}
                isInvalid={!!errors.invoiceOrderId}
              />
              <Form.Control.Feedback type="invalid">{errors.invoiceOrderId?.message}</Form.Control.Feedback>
            </Form.Group>
            <Button type="submit" disabled={isLoading}>
              Send Invoice
            </Button>
          </Form>
        </Card.Body>
      </Card>
    </div>
  );
}
