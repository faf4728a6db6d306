import { toast } from 'react-toastify';
import { clearSession } from '../app/session';

/** Toasts a failed call outside RTK Query (upload, PDFs) the way spec §8 asks; 401 also signs out. */
export function toastFailure(httpStatus: number, message: string): void {
  toast.error(message);
  if (httpStatus === 401) {
    clearSession();
    window.location.assign('/');
  }
}
