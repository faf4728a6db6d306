import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import type { ExportEventBody } from '../../shared/contracts/audit';
import { toCsv } from '../../shared/csv';
import { type Envelope, api, errorMessage } from '../transport/api';
import { requestBlob } from '../transport/api-client';
import { downloadBlob, downloadText } from './download';

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

/**
 * A CSV export the server builds: the whole filtered view (every page), streamed, recorded in the audit
 * log by the server before the first byte. The order lists and the audit log export through it.
 */
export function useServerExport() {
  const [exporting, setExporting] = useState(false);
  const exportFile = useCallback(
    async (path: string, params: Record<string, string>, fallbackName: string) => {
      setExporting(true);
      const res = await requestBlob(path, { params });
      setExporting(false);
      // A 401 has signed out in the transport, with its own toast.
      if (res.ok) downloadBlob(res.fileName ?? fallbackName, res.blob);
      else if (res.error.status !== 401) toast.error(res.error.data.message);
    },
    [],
  );
  return { exportFile, exporting };
}
