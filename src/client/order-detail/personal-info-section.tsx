import { countryName } from '../../shared/countries';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { ContactLinks, formatPhone } from './contact-links';
import { FieldGrid, Section } from './section';

export function PersonalInfoSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Personal Information">
      <FieldGrid
        fields={[
          ['Country of Residence', countryName(order.country_of_residence)],
          ['Zip/Postal Code', order.zip_code],
          ['State', order.state],
          ['City', order.city],
          ['Address', order.address],
          ['House/Apartment Number', order.residence_number],
          ['Occupation', order.occupation],
          ['Purpose of Visit', order.purpose_of_visit],
          ['Dual Citizenship', order.dual_citizenship],
          ['Email', order.email.toUpperCase()],
          ['Re-entered Email', (order.re_enter_email ?? '').toUpperCase()],
          ['Phone Number', formatPhone(order)],
        ]}
      />
      <ContactLinks order={order} />
    </Section>
  );
}
