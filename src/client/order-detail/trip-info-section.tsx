import type { OrderDetails } from '../../shared/contracts/order-detail';
import { FieldGrid, Section } from './section';

export function TripInfoSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Trip Information">
      <FieldGrid
        fields={[
          ['Prior Visits to Aruba', order.prior_visits],
          ['Accommodation', order.place_of_stay],
          ['Accommodation Name', order.name_of_place_of_stay],
          ['Other Accommodation Name', order.other_hotel_name],
          ['Address', order.local_address],
          ['House Number', order.house_number],
          ['Order ID Mail', order.application_email],
        ]}
      />
    </Section>
  );
}
