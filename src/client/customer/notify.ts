import { type Id, toast } from 'react-toastify';

/** A success message closes itself after this long; an error stays until the customer closes it. */
export const SUCCESS_TOAST_MS = 8000;

const shown: { success?: Id; error?: Id } = {};

/** One toast per kind on screen: a new one replaces the previous one of its kind instead of piling up. */
function show(kind: 'success' | 'error', message: string) {
  const previous = shown[kind];
  if (previous !== undefined) toast.dismiss(previous);
  shown[kind] = toast[kind](message, { autoClose: kind === 'success' ? SUCCESS_TOAST_MS : false });
}

/** An error toast (it stays until closed, and replaces an earlier error). */
export function notifyError(message: string | undefined): void {
  if (message) show('error', message);
}

/** Closes the error toast still on screen: it was about a problem that has just been resolved. */
export function dismissError(): void {
  if (shown.error !== undefined) toast.dismiss(shown.error);
  shown.error = undefined;
}
