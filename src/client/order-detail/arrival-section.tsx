import { formatDate } from '../../shared/dates';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { FieldGrid, Section } from './section';

export function ArrivalSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Arrival/Departure Date">
      <FieldGrid
        fields={[
          ['Arrival Date', formatDate(order.arrival_date)],
          ['Resident of Aruba', order.resident_check],
        ]}
      />
    </Section>
  );
}
