import { useLocation, useMatches } from 'react-router';
import { FOLDER_ROUTES, type FolderRoute } from './nav';
import {
  ALL_FOLDER_COLUMNS,
  CONTACT_CUSTOMER_COLUMNS,
  CONTACT_CUSTOMER_DEFAULT_KEYS,
  FOLDER_COLUMNS,
  REFUND_DEFAULT_KEYS,
  REFUND_FOLDER_COLUMNS,
} from './columns';
import { useGetFolderCountQuery } from './counts-api';
import { OrderQueue } from './order-queue';

/** Every folder route (`/admin`, `/admin/recent-order`, … `/admin/refund-order`). */
export function Component() {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as { folder?: FolderRoute } | undefined;
  const route = handle?.folder ?? FOLDER_ROUTES[0]!;
  const { pathname } = useLocation();
  // Keyed by route: the list, selection and search box start empty on every route change.
  return <FolderQueue key={pathname} route={route} />;
}

function FolderQueue({ route }: { route: FolderRoute }) {
  // Counts are fetched again whenever a queue screen opens.
  const counts = useGetFolderCountQuery(undefined, { refetchOnMountOrArgChange: true });
  const contact = route.folder === 'contactCustomerOrder';
  const refunds = route.folder === 'refundOrder' || route.folder === 'refundedOrder';
  return (
    <OrderQueue
      folder={route.folder}
      title={route.title}
      columns={contact ? CONTACT_CUSTOMER_COLUMNS : FOLDER_COLUMNS}
      folderTotal={counts.data?.[route.countKey]}
      choosable={refunds ? REFUND_FOLDER_COLUMNS : ALL_FOLDER_COLUMNS}
      // Contact Customer keeps its own column choice, so Telephone stays hidden there until added there.
      {...(contact ? { defaultColumns: CONTACT_CUSTOMER_DEFAULT_KEYS, prefsScope: route.folder } : {})}
      {...(refunds ? { defaultColumns: REFUND_DEFAULT_KEYS, prefsScope: route.folder } : {})}
    />
  );
}
