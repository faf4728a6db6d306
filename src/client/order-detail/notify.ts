import { toast } from 'react-toastify';
import { signalUnauthorized } from '../app/api';

/** Toasts a failed call outside RTK Query (upload, PDFs) the way spec §8 asks; 401 also signs out. */
export function toastFailure(httpStatus: number, message: string): void {
  if (httpStatus === 401) signalUnauthorized(message);
  else toast.error(message);
}
