import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { changePasswordBody } from '../../shared/contracts/auth';
import { errorMessage } from '../transport/api';
import { useChangePasswordMutation } from '../auth/auth-api';
import { TextField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { PasswordStrength } from '../components/password-strength';
import { signOut } from '../auth/sign-out';
import { useSessionUser } from '../auth/use-session-user';

/**
 * /admin/change-password. Deliberate change (decision 012): the current password is
 * asked too. Success revokes every session of the user, so the stored one is cleared and we go to /.
 */
export function Component() {
  const navigate = useNavigate();
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const user = useSessionUser();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useZodForm(changePasswordBody, { defaultValues: { currentPassword: '', newPassword: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await changePassword(values).unwrap();
      signOut({ kind: 'success', message: res.message });
      navigate('/', { replace: true });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  return (
    <Card className="shadow-sm" style={{ maxWidth: 520 }}>
      <Card.Header as="h1" className="h5 mb-0">
        Update Password
      </Card.Header>
      <Card.Body>
        <form noValidate onSubmit={onSubmit} aria-label="Update password">
          <TextField
            id="currentPassword"
            className="mb-3"
            label="Current Password"
            error={errors.currentPassword?.message}
            type="password"
            autoComplete="current-password"
            {...register('currentPassword')}
          />
          <TextField
            id="newPassword"
            className="mb-3"
            label="New Password"
            error={errors.newPassword?.message}
            type="password"
            autoComplete="new-password"
            {...register('newPassword')}
            after={<PasswordStrength password={watch('newPassword')} userInputs={user ? [user.name] : []} />}
          />
          <Button type="submit" disabled={isLoading}>
            Update Password
          </Button>
        </form>
      </Card.Body>
    </Card>
  );
}
