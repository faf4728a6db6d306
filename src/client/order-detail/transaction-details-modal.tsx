import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import {
  type OrderDetails,
  type SaveTransactionForm,
  saveTransactionForm,
} from '../../shared/contracts/order-detail';
import { errorMessage } from '../app/api';
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
  } = useForm<SaveTransactionForm>({
    resolver: zodResolver(saveTransactionForm),
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
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton>
          <Modal.Title>Enter Transaction Details</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="transactionId" className="mb-3">
            <Form.Label>Transaction Id</Form.Label>
            <Form.Control {...register('transactionId')} isInvalid={!!errors.transactionId} />
            <Form.Control.Feedback type="invalid">{errors.transactionId?.message}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId="merchantName">
            <Form.Label>Merchant Name</Form.Label>
            <Form.Control {...register('merchantName')} isInvalid={!!errors.merchantName} />
            <Form.Control.Feedback type="invalid">{errors.merchantName?.message}</Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            Close
          </Button>
          <Button type="submit" disabled={isLoading}>
            Submit
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
