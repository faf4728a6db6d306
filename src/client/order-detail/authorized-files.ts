import { requestBlob } from '../transport/api-client';
import { downloadBlob } from '../components/download';

export interface FileFailure {
  httpStatus: number | 'FETCH_ERROR';
  message: string;
}

/**
 * POSTs to an API path that answers with a PDF and shows it in a new window (get-defence-pack-pdf).
 * The window opens at click time, before the await, so that popup blockers let it through.
 */
export async function openPdfInNewWindow(path: string, body: unknown): Promise<FileFailure | null> {
  const win = window.open('', '_blank');
  const result = await requestBlob(path, { method: 'POST', body, expectType: 'application/pdf' });
  if (!result.ok) {
    win?.close();
    return { httpStatus: result.error.status, message: result.error.data.message };
  }
  const url = URL.createObjectURL(result.blob);
  if (win) win.location.href = url;
  else window.open(url, '_blank');
  // The new window holds the document once loaded; free the URL a while later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return null;
}

/** Downloads a staff-only file (the uploaded document) under its original name. */
export async function downloadWithToken(url: string, fileName: string): Promise<FileFailure | null> {
  const result = await requestBlob(url);
  if (!result.ok) return { httpStatus: result.error.status, message: result.error.data.message };
  downloadBlob(fileName, result.blob);
  return null;
}
