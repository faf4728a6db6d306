import { useCallback } from 'react';
import { toast } from 'react-toastify';
import type { ExportEventBody } from '../../shared/contracts/audit';
import { toCsv } from '../../shared/csv';
import { type Envelope, api, errorMessage } from '../app/api';
import { downloadText } from './download';

const exportRecordApi = api.injectEndpoints({
  endpoints: (build) => ({
    recordExport: build.mutation<Envelope, ExportEventBody>({
      query: (body) => ({ url: 'admin/audit/export-event', method: 'POST', body }),
    }),
  }),
});
const { useRecordExportMutation } = exportRecordApi;

type Cell = string | number | null | undefined;

/**
 * A CSV export that is recorded in the audit log first: the file is built in the browser only after the
 * server has written the 'export.csv' entry (docs/decisions/123); if that fails, nothing is downloaded.
 */
export function useAuditedExport(screen: ExportEventBody['screen']) {
  const [record, { isLoading }] = useRecordExportMutation();
  const exportCsv = useCallback(
    async (fileName: string, header: string[], rows: Cell[][], detail = '') => {
      try {
        await record({ screen, rows: rows.length, detail: detail.slice(0, 500) }).unwrap();
      } catch (error) {
        toast.error(errorMessage(error));
        return;
      }
      downloadText(fileName, toCsv(header, rows));
    },
    [record, screen],
  );
  return { exportCsv, exporting: isLoading };
}
