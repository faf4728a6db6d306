import { MSG } from '../../shared/messages';
import type { ApiEnvelope } from '../app/api';
import { getAccessToken } from '../app/session';

export interface FileFailure {
  httpStatus: number;
  message: string;
}

/** Staff files need the token in a header, so a plain link cannot fetch them; this does. */
async function fetchFile(url: string, init: RequestInit, expectType?: string): Promise<Blob | FileFailure> {
  try {
    const token = getAccessToken();
    const headers = new Headers(init.headers);
    if (token) headers.set('Authorization', token);
    const res = await fetch(url, { ...init, headers });
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && (!expectType || type.includes(expectType))) return await res.blob();
    const envelope = (await res.json().catch(() => null)) as ApiEnvelope | null;
    return { httpStatus: res.status, message: envelope?.message ?? `Request failed (HTTP ${res.status})` };
  } catch {
    return { httpStatus: 0, message: MSG.networkError };
  }
}

/**
 * POSTs to an API path that answers with a PDF and shows it in a new window (spec §7 get-defence-pack-pdf).
 * The window opens at click time, before the await, so that popup blockers let it through.
 */
export async function openPdfInNewWindow(path: string, body: unknown): Promise<FileFailure | null> {
  const win = window.open('', '_blank');
  const result = await fetchFile(
    `/api/${path}`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    'application/pdf',
  );
  if (!(result instanceof Blob)) {
    win?.close();
    return result;
  }
  const url = URL.createObjectURL(result);
  if (win) win.location.href = url;
  else window.open(url, '_blank');
  // The new window holds the document once loaded; free the URL a while later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return null;
}

/** Downloads a staff-only file (the uploaded document) under its original name. */
export async function downloadWithToken(url: string, fileName: string): Promise<FileFailure | null> {
  const result = await fetchFile(url.startsWith('/') || url.includes('://') ? url : `/api/${url}`, {});
  if (!(result instanceof Blob)) return result;
  const href = URL.createObjectURL(result);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return null;
}
