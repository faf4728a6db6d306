import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { errorMessage } from '../transport/api';
import { useGetEmailContentQuery } from './order-detail-api';

/** wa.me link to `+code number` carrying the text (digits only, as wa.me wants). */
export function whatsappLink(order: Pick<OrderDetails, 'phone_code' | 'telephone_number'>, text: string) {
  const digits = `${order.phone_code ?? ''}${order.telephone_number ?? ''}`.replace(/\D/g, '');
  if (!order.telephone_number || !digits) return null;
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}

/** The approval notice as the customer receives it (rendered by the server, shown in a sandboxed frame). */
export function EmailContentModal({
  order,
  show,
  onHide,
}: {
  order: OrderDetails;
  show: boolean;
  onHide: () => void;
}) {
  const { data, error, isFetching } = useGetEmailContentQuery(order.order_id, { skip: !show });
  const link = data ? (data.whatsappUrl ?? whatsappLink(order, data.whatsappText)) : null;

  return (
    <Modal show={show} onHide={onHide} size="lg" centered>
      <Modal.Header closeButton>
        <Modal.Title>Email Content</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {isFetching && !data ? (
          <Spinner animation="border" size="sm" role="status" />
        ) : error ? (
          <p className="text-danger mb-0">{errorMessage(error)}</p>
        ) : data ? (
          <iframe
            title="Email Content"
            // No scripts in the mail; links may open in a new tab.
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={data.html}
            className="w-100 border rounded"
            style={{ height: '60vh' }}
          />
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
        <Button
          variant="success"
          disabled={!link}
          title={link ? undefined : 'No telephone number on this order'}
          onClick={() => link && window.open(link, '_blank', 'noopener,noreferrer')}
        >
          Send Whatsapp Message
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
