import { CHARGEBACK_COLUMNS } from './columns';
import { useGetFolderCountQuery } from './counts-api';
import { OrderQueue } from './order-queue';

/** Chargeback list: titled 'New Orders' (exact product text); Delete for Manager and Admin. */
export function Component() {
  const counts = useGetFolderCountQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <OrderQueue
      folder="chargeBack"
      title="New Orders"
      columns={CHARGEBACK_COLUMNS}
      folderTotal={counts.data?.chargeBackCount}
    />
  );
}
