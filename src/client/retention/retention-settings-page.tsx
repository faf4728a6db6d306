import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { DEFAULT_RETENTION_DAYS, ERASED_FIELDS, retentionSettings } from '../../shared/contracts/retention';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { useSessionUser } from '../auth/use-session-user';
import { TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import { useGetRetentionSettingsQuery, useSaveRetentionSettingsMutation } from './retention-api';

/** /admin/retention-settings (Admin): how long personal data is kept after the end of travel. */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'settings.retention');
  const settings = useGetRetentionSettingsQuery(undefined, {
    skip: !allowed,
    refetchOnMountOrArgChange: true,
  });
  const [save, { isLoading: saving }] = useSaveRetentionSettingsMutation();
  // The field shows the stored period until someone types: no empty first frame to fill in later.
  const [typed, setDays] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (!allowed) {
    return (
      <Alert variant="warning" role="alert">
        <h1 className="h5">Retention of personal data</h1>
        Only an Admin can change how long personal data is kept.
      </Alert>
    );
  }
  if (settings.error) {
    return <LoadError message={errorMessage(settings.error)} onRetry={() => void settings.refetch()} />;
  }
  if (!settings.data) return <Spinner animation="border" size="sm" role="status" aria-label="Loading" />;
  const days = typed ?? String(settings.data.days);

  const submit = async () => {
    const parsed = retentionSettings.safeParse({ days: days.trim() === '' ? Number.NaN : Number(days) });
    if (!parsed.success) {
      setProblem(`Days ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    setProblem(null);
    try {
      const res = await save(parsed.data).unwrap();
      toast.success(res.message);
      void settings.refetch();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const changed = days !== String(settings.data.days);

  return (
    <Card className="shadow-sm" style={{ maxWidth: 720 }} as="section" aria-labelledby="retention-title">
      <Card.Header>
        <h1 id="retention-title" className="h5 mb-0">
          Retention of personal data
        </h1>
      </Card.Header>
      <Card.Body>
        <p>
          Every day, the personal data of orders whose travel ended more than the days below ago is erased.
          The order, its status history and its money facts stay, with names reduced to initials; its
          documents are deleted. Orders under chargeback are kept until the chargeback is closed. Defence
          Packs of an erased order say what was erased and when.
        </p>
        <details className="mb-3">
          <summary>What is erased</summary>
          <ul className="small mb-0 mt-2">
            {ERASED_FIELDS.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </details>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField
            id="retention-days"
            className="mb-3"
            style={{ maxWidth: 320 }}
            label="Days after the end of travel"
            help={
              <>
                From 30 to 3650 days; the default is {DEFAULT_RETENTION_DAYS}. The end of travel is the
                departure date, or the arrival date when there is none.
              </>
            }
            error={problem}
            type="number"
            inputMode="numeric"
            min={30}
            max={3650}
            step={1}
            value={days}
            onChange={(e) => {
              setDays(e.target.value);
              setProblem(null);
            }}
          />
          <div className="d-flex flex-wrap align-items-center gap-3">
            <Button type="submit" disabled={saving || !changed}>
              {saving ? <Spinner size="sm" animation="border" className="me-1" aria-hidden /> : null}
              Save
            </Button>
            <Link to="/admin/audit-log?action=settings.update" className="small">
              Changes in the audit log
            </Link>
            <Link to="/admin/audit-log?action=order.erase" className="small">
              Erasures in the audit log
            </Link>
          </div>
        </form>
      </Card.Body>
    </Card>
  );
}
