import type { OrderDetails } from '../../shared/contracts/order-detail';
import { FieldGrid, Section } from './section';

export function OrderDetailsSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Order Details">
      <FieldGrid
        fields={[
          ['Order ID', order.order_id],
          ['Application Email Address', order.application_email],
          ['Processing Mode', order.processing_mode],
        ]}
      />
    </Section>
  );
}
