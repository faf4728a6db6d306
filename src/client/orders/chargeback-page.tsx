import { CHARGEBACK_COLUMNS } from './columns';
import { useGetFolderCountQuery } from './counts-api';
import { OrderQueue } from './order-queue';

/** Chargeback list: titled as the sidebar names it (not "New Orders"); Delete for Manager and Admin. */
export function Component() {
  const counts = useGetFolderCountQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <OrderQueue
      folder="chargeBack"
      title="Chargeback"
      columns={CHARGEBACK_COLUMNS}
      folderTotal={counts.data?.chargeBackCount}
    />
  );
}
