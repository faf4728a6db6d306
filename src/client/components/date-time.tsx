import { formatIsoInstant, formatStaffDateTime } from '../../shared/dates';

/**
 * A moment on a staff screen: "18 Nov 2026 15:16 EST" (US Eastern, labelled EST or EDT by date), with
 * the full ISO instant on hover and in the `datetime` attribute.
 */
export function DateTime({ value }: { value: string | null | undefined }) {
  const iso = formatIsoInstant(value);
  if (!iso) return null;
  return (
    <time dateTime={iso} title={iso}>
      {formatStaffDateTime(value)}
    </time>
  );
}
