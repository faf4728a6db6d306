import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { column, DataTable } from '../components/list-kit/data-table';
import { MSG } from '../../shared/messages';
import { MailResendForm } from './mail-resend-form';
import { currentDocument } from './current-document';
import { Section } from './section';

function lastProvider(order: OrderDetails): MailProvider {
  return MAIL_PROVIDERS.find((p) => p === currentDocument(order)?.mail_service_provider) ?? 'AWS';
}

type Download = OrderDetails['downloadHistory'][number];
const DOWNLOAD_COLUMNS = [
  column<Download>('#', (_, i) => i + 1),
  column<Download>('Order ID', (row) => row.order_id),
  column<Download>('Date & Time', (row) => <DateTime value={row.create_ts} />),
  column<Download>('Downloaded File', (row) => row.file_name ?? '-'),
  column<Download>('IP Address', (row) => row.ip),
  column<Download>('Location', (row) => row.location || '-'),
];
const byId = (row: Download) => String(row.id);

/** Customer downloads (US Eastern time) and a Sent Mail button that mails the approved document again. */
export function DownloadHistorySection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Download History">
      <DataTable
        rows={order.downloadHistory}
        columns={DOWNLOAD_COLUMNS}
        rowId={byId}
        className="table table-sm table-bordered align-middle"
        wrapClassName="table-responsive"
        empty={MSG.noRecord}
      />
      <MailResendForm
        order={order}
        inputId="sent-mail-email"
        // The provider the document last went out with (see docs/decisions/041).
        buttons={[{ label: 'Sent Mail', provider: lastProvider(order) }]}
      />
    </Section>
  );
}
