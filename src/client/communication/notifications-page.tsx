import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { StatusNotification } from '../../shared/contracts/communication';
import { statusName } from '../../shared/order-rules';
import { errorMessage } from '../transport/api';
import { LoadError } from '../components/load-error';
import {
  useGetNotificationsQuery,
  useGetTemplatesQuery,
  useSaveNotificationsMutation,
} from './communication-api';
import { CheckboxField, SelectField } from '../components/form-kit/form-field';
import { column, DataTable } from '../components/list-kit/data-table';

const byStatus = (s: StatusNotification) => s.status;

/** /admin/status-notifications: per status, whether the customer is mailed on entering it, and with what. */
export function Component() {
  const settings = useGetNotificationsQuery(undefined, { refetchOnMountOrArgChange: true });
  const templates = useGetTemplatesQuery();
  const [save, saving] = useSaveNotificationsMutation();
  const [draft, setDraft] = useState<StatusNotification[] | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);

  if (settings.error)
    return <LoadError message={errorMessage(settings.error)} onRetry={() => void settings.refetch()} />;
  if (!draft)
    return <div className="p-3 spinner-border spinner-border-sm" role="status" aria-label="Loading" />;

  const keys = [
    ...new Map(
      (templates.data ?? [])
        .filter((t) => t.purpose === 'customer' || t.purpose === 'refund')
        .map((t) => [t.key, t.name]),
    ).entries(),
  ];
  const set = (status: StatusNotification['status'], change: Partial<StatusNotification>) =>
    setDraft(draft.map((s) => (s.status === status ? { ...s, ...change } : s)));
  const columns = [
    column<StatusNotification>('Status', (s) => statusName(s.status)),
    column<StatusNotification>('Mail the customer', (s) => (
      <CheckboxField
        id={`notify-${s.status}`}
        label={`Mail the customer on entering ${statusName(s.status)}`}
        labelClassName="visually-hidden"
        checked={s.enabled}
        onChange={(e) => set(s.status, { enabled: e.target.checked })}
      />
    )),
    column<StatusNotification>('Template', (s) => (
      <SelectField
        id={`notify-template-${s.status}`}
        size="sm"
        label={`Template for ${statusName(s.status)}`}
        labelClassName="visually-hidden"
        value={s.templateKey ?? ''}
        onChange={(e) => set(s.status, { templateKey: e.target.value || null })}
      >
        <option value="">None</option>
        {keys.map(([key, name]) => (
          <option key={key} value={key}>
            {name}
          </option>
        ))}
      </SelectField>
    )),
  ];
  const submit = async () => {
    try {
      toast.success((await save(draft).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section className="p-3" aria-labelledby="notifications-title" style={{ maxWidth: 760 }}>
      <h1 id="notifications-title" className="h4">
        Status notifications
      </h1>
      <p className="text-muted small">
        When an order enters a status, by any path (the order's page, a list, a macro), the customer is mailed
        the chosen template in their language, in the same step as the move. A macro that sends its own mail,
        and "Upload, mail and complete", send only theirs.{' '}
        <Link to="/admin/waiting-policy">Waiting policy</Link>: reminders when a customer does not answer.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset disabled={saving.isLoading}>
          <DataTable
            rows={draft}
            columns={columns}
            rowId={byStatus}
            label="Status notifications"
            className="table table-sm"
            empty={null}
          />
          <Button type="submit">Save</Button>
        </fieldset>
      </form>
    </section>
  );
}
