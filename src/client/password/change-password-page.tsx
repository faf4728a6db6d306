import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { type ChangePasswordBody, changePasswordBody } from '../../shared/contracts/auth';
import { errorMessage } from '../app/api';
import { useChangePasswordMutation } from '../auth/auth-api';
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
  } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBody),
    defaultValues: { currentPassword: '', newPassword: '' },
  });

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
        <Form noValidate onSubmit={onSubmit} aria-label="Update password">
          <Form.Group controlId="currentPassword" className="mb-3">
            <Form.Label>Current Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="current-password"
              {...register('currentPassword')}
              isInvalid={!!errors.currentPassword}
            />
            <Form.Control.Feedback type="invalid">{errors.currentPassword?.message}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group controlId="newPassword" className="mb-3">
            <Form.Label>New Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="new-password"
              {...register('newPassword')}
              isInvalid={!!errors.newPassword}
            />
            <Form.Control.Feedback type="invalid">{errors.newPassword?.message}</Form.Control.Feedback>
            <PasswordStrength password={watch('newPassword')} userInputs={user ? [user.name] : []} />
          </Form.Group>
          <Button type="submit" disabled={isLoading}>
            Update Password
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
