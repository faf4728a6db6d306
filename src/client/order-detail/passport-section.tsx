import { formatDate } from '../../shared/dates';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { PassportScanPanel } from './passport-scan-panel';
import { FieldGrid, Section } from './section';

export function PassportSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Passport details">
      <FieldGrid
        fields={[
          ['Passport Number', order.passport_number],
          ['Passport Expiration', formatDate(order.passport_expiration)],
          ['Last Name', order.last_name],
          ['First Name', order.first_name],
          ['Nationality', order.nationality],
          ['Date of Birth', formatDate(order.date_of_birth)],
          ['Gender', order.sex],
          ['Country of Birth', order.country_of_birth],
        ]}
      />
      <PassportScanPanel order={order} />
    </Section>
  );
}
