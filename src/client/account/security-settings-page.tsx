import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import { ROLES, type Role } from '../../shared/constants';
import { errorMessage } from '../transport/api';
import { useGetSecuritySettingsQuery, useSaveSecuritySettingsMutation } from './account-api';
import { CheckboxField } from '../components/form-kit/form-field';

/** /admin/account/security-settings (Admin): two-factor sign-in per role; password change after a reset. */
export function Component() {
  const { data, isError } = useGetSecuritySettingsQuery();
  const [save, saving] = useSaveSecuritySettingsMutation();
  const [roles, setRoles] = useState<Role[]>([]);
  const [mustChange, setMustChange] = useState(false);
  useEffect(() => {
    if (!data) return;
    setRoles(data.twoFactorRoles);
    setMustChange(data.mustChangeSetPasswords);
  }, [data]);

  if (isError)
    return <div className="alert alert-danger">Only an Admin can change the sign-in settings.</div>;

  const submit = async () => {
    try {
      const res = await save({ twoFactorRoles: roles, mustChangeSetPasswords: mustChange }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <Card className="shadow-sm" style={{ maxWidth: 640 }}>
      <Card.Header as="h1" className="h5 mb-0">
        Sign-in settings
      </Card.Header>
      <Card.Body>
        <fieldset className="mb-3">
          <legend className="h6">Require two-factor sign-in for</legend>
          {ROLES.map((role) => (
            <CheckboxField
              key={role}
              id={`tf-role-${role}`}
              label={role}
              checked={roles.includes(role)}
              onChange={(e) => {
                // Read now: the event's target is gone when React runs the updater later.
                const on = e.currentTarget.checked;
                setRoles((r) => (on ? [...r, role] : r.filter((x) => x !== role)));
              }}
            />
          ))}
          <div className="form-text">
            Such users are sent to set it up at their next sign-in, before anything else.
          </div>
        </fieldset>
        <CheckboxField
          asSwitch
          id="must-change"
          className="mb-3"
          label="A password set by someone else must be changed at its first sign-in"
          checked={mustChange}
          onChange={(e) => setMustChange(e.currentTarget.checked)}
        />
        <Button onClick={submit} disabled={saving.isLoading || !data}>
          Save
        </Button>
      </Card.Body>
    </Card>
  );
}
