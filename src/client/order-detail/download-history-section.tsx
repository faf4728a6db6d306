import Table from 'react-bootstrap/Table';
import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { MSG } from '../../shared/messages';
import { MailResendForm } from './mail-resend-form';
import { currentDocument } from './current-document';
import { Section } from './section';

function lastProvider(order: OrderDetails): MailProvider {
  return MAIL_PROVIDERS.find((p) => p === currentDocument(order)?.mail_service_provider) ?? 'AWS';
}

/** Customer downloads (US Eastern time) and a Sent Mail button that mails the approved document again. */
export function DownloadHistorySection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Download History">
      <Table responsive bordered size="sm" className="align-middle">
        <thead>
          <tr>
            <th>#</th>
            <th>Order ID</th>
            <th>Date &amp; Time</th>
            <th>Downloaded File</th>
            <th>IP Address</th>
            <th>Location</th>
          </tr>
        </thead>
        <tbody>
          {order.downloadHistory.length === 0 ? (
            <tr>
              <td colSpan={6} className="text-center text-muted">
                {MSG.noRecord}
              </td>
            </tr>
          ) : (
            order.downloadHistory.map((row, i) => (
              <tr key={row.id}>
                <td>{i + 1}</td>
                <td>{row.order_id}</td>
                <td>
                  <DateTime value={row.create_ts} />
                </td>
                <td>{row.file_name ?? '-'}</td>
                <td>{row.ip}</td>
                <td>{row.location || '-'}</td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <MailResendForm
        order={order}
        inputId="sent-mail-email"
        // The provider the document last went out with (see docs/decisions/041).
        buttons={[{ label: 'Sent Mail', provider: lastProvider(order) }]}
      />
    </Section>
  );
}
