import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { DEFENCE_PACK_TYPES } from '../../shared/constants';
import { openPdfInNewWindow } from './authorized-files';
import { toastFailure } from './notify';

/** Defence Pack 1 (proof of delivery) and 2 (full case file): the PDF opens in a new window. */
export function DefencePackButtons({ orderId }: { orderId: number }) {
  const [busy, setBusy] = useState<number | null>(null);

  const open = async (defencePackType: (typeof DEFENCE_PACK_TYPES)[number]) => {
    setBusy(defencePackType);
    const failure = await openPdfInNewWindow('admin/get-defence-pack-pdf', { orderId, defencePackType });
    setBusy(null);
    if (failure) toastFailure(failure.httpStatus, failure.message);
  };

  return (
    <>
      {DEFENCE_PACK_TYPES.map((type) => (
        <Button key={type} variant="outline-primary" disabled={busy !== null} onClick={() => open(type)}>
          Defence Pack {type}
        </Button>
      ))}
    </>
  );
}
