import { toast } from 'react-toastify';

/**
 * Toasts a failed call outside RTK Query (upload, PDFs, files). A 401 has already signed out in the
 * transport, with its own toast, so it is not toasted twice.
 */
export function toastFailure(httpStatus: number | 'FETCH_ERROR', message: string): void {
  if (httpStatus !== 401) toast.error(message);
}
