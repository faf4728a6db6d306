import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { saveTransactionForm } from '../../shared/contracts/order-detail-actions';
import { errorMessage } from '../transport/api';
import { TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { useSaveTransactionDetailsMutation } from './order-detail-api';

/** Enter Transaction Details: status 1 closes the modal and reloads the order. */
export function TransactionDetailsModal({
  order,
  show,
  onHide,
}: {
  order: OrderDetails;
  show: boolean;
  onHide: () => void;
}) {
  const [save, { isLoading }] = useSaveTransactionDetailsMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useZodForm(saveTransactionForm, {
    values: { transactionId: order.transaction_id ?? '', merchantName: order.merchant_name ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await save({ orderId: order.order_id, ...values }).unwrap();
      toast.success(res.message);
      onHide();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  return (
    <Modal show={show} onHide={onHide} centered>
      <form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton>
          <Modal.Title>Enter Transaction Details</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField
            id="transactionId"
            className="mb-3"
            label="Transaction Id"
            error={errors.transactionId?.message}
            {...register('transactionId')}
          />
          <TextField
            id="merchantName"
            label="Merchant Name"
            error={errors.merchantName?.message}
            {...register('merchantName')}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            Close
          </Button>
          <Button type="submit" disabled={isLoading}>
            Submit
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
