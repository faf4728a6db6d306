import { formatDate } from '../../shared/dates';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { FieldGrid, Section } from './section';

export function ArrivalDetailsSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Arrival details">
      <FieldGrid
        fields={[
          ['Country of Departure', order.country_of_departure],
          ['Travel Mode', order.travel_mode],
          ['Airline', order.airline],
          ['Flight Number', order.flight_number],
          ['Departure Date from Aruba', formatDate(order.departure_date)],
          ['Vessel Name', order.vessel_name],
        ]}
      />
    </Section>
  );
}
