import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { type FieldErrors, type UseFormRegister, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ROLES, type Role } from '../../shared/constants';
import type { z } from 'zod';
import {
  addTeamMemberBody,
  editTeamMemberFormWithReauth,
  needsCurrentPassword,
  TEAM_MSG,
  type TeamMember,
} from '../../shared/contracts/team';
import { PasswordStrength } from '../components/password-strength';
import { SelectField, TextField } from '../components/form-kit/form-field';
import { errorMessage } from '../transport/api';
import {
  useAddTeamMemberMutation,
  useGetTeamMemberTypesQuery,
  useUpdateTeamMemberMutation,
} from './team-api';

type TeamFormValues = z.infer<typeof editTeamMemberFormWithReauth>;

interface Props {
  /** The member being edited; absent when adding. */
  member?: TeamMember | undefined;
  actorType: string;
  /** The signed-in user's id: one's own password is changed elsewhere. */
  actorId?: number | undefined;
}

/** Name, e-mail, password (with its strength), type, and one's own password when a change asks for it. */
function TeamFormFields({
  register,
  errors,
  editing,
  self,
  emailValue,
  passwordValue,
  options,
  askCurrent,
}: {
  register: UseFormRegister<TeamFormValues>;
  errors: FieldErrors<TeamFormValues>;
  editing: boolean;
  /** One's own account: the password is changed elsewhere. */
  self: boolean;
  emailValue: string | undefined;
  passwordValue: string | undefined;
  options: { type: string; disabled: boolean }[];
  askCurrent: boolean;
}) {
  return (
    <Row className="g-3">
      <Col md={6}>
        <TextField
          id="team-name"
          label="Name"
          error={errors.name?.message}
          autoComplete="off"
          {...register('name')}
        />
      </Col>
      <Col md={6}>
        <TextField
          id="team-email"
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="off"
          {...register('email')}
        />
      </Col>
      <Col md={6}>
        <TextField
          id="team-password"
          label="Password"
          error={errors.password?.message}
          type="password"
          autoComplete="new-password"
          placeholder={
            self ? TEAM_MSG.ownPasswordHere : editing ? 'Leave empty to keep the current password' : ''
          }
          disabled={self}
          {...register('password')}
          after={
            self ? null : <PasswordStrength password={passwordValue ?? ''} userInputs={[emailValue ?? '']} />
          }
        />
      </Col>
      <Col md={6}>
        <SelectField id="team-type" label="Type" error={errors.type?.message} {...register('type')}>
          <option value="">Select type</option>
          {options.map((o) => (
            <option key={o.type} value={o.type} disabled={o.disabled}>
              {o.type}
            </option>
          ))}
        </SelectField>
      </Col>
      {askCurrent ? (
        <Col md={6}>
          <TextField
            id="team-current-password"
            label="Your current password"
            help="Needed to change the password or e-mail of an Admin or Manager account."
            error={errors.currentPassword?.message}
            type="password"
            autoComplete="current-password"
            {...register('currentPassword')}
          />
        </Col>
      ) : null}
    </Row>
  );
}

/** The add/edit form of Manage Team: the shared zod contract is its resolver. */
export function TeamForm({ member, actorType, actorId }: Props) {
  const navigate = useNavigate();
  const editing = !!member;
  const { data: types } = useGetTeamMemberTypesQuery();
  const [addMember, adding] = useAddTeamMemberMutation();
  const [updateMember, updating] = useUpdateTeamMemberMutation();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<TeamFormValues>({
    resolver: zodResolver(editing ? editTeamMemberFormWithReauth : addTeamMemberBody),
    defaultValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      password: '',
      type: (member?.type ?? '') as Role,
      currentPassword: '',
    },
  });
  const self = !!member && member.id === actorId;
  const [emailValue, passwordValue] = watch(['email', 'password']);
  // Changing another Admin's or Manager's password or e-mail (or one's own e-mail) asks for one's own password.
  const askCurrent =
    !!member &&
    actorId !== undefined &&
    needsCurrentPassword(actorId, member, {
      password: !!passwordValue,
      email: (emailValue ?? '').trim().toLowerCase() !== member.email.toLowerCase(),
    });

  const onSubmit = handleSubmit(async ({ currentPassword, ...values }) => {
    if (askCurrent && !currentPassword) {
      setError('currentPassword', { message: TEAM_MSG.currentPasswordNeeded });
      return;
    }
    try {
      const res = member
        ? await updateMember({
            ...values,
            password: values.password ?? '',
            tmId: member.id,
            ...(askCurrent ? { currentPassword } : {}),
          }).unwrap()
        : await addMember({ ...values, password: values.password ?? '' }).unwrap();
      toast.success(res.message);
      if (member) navigate('/admin/manage-team');
      else reset({ name: '', email: '', password: '', type: '' as Role });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  // Only an Admin may hand out the Admin type (docs/product.md); the server refuses it anyway.
  const options = (types && types.length > 0 ? types : [...ROLES]).map((type) => ({
    type,
    disabled: type === 'Admin' && actorType !== 'Admin',
  }));
  const busy = adding.isLoading || updating.isLoading;

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        {editing ? 'Edit Team Member' : 'Add Team Member'}
      </Card.Header>
      <Card.Body>
        <form noValidate onSubmit={onSubmit} aria-label={editing ? 'Edit team member' : 'Add team member'}>
          <TeamFormFields
            register={register}
            errors={errors}
            editing={editing}
            self={self}
            emailValue={emailValue}
            passwordValue={passwordValue}
            options={options}
            askCurrent={askCurrent}
          />
          <div className="d-flex gap-2 mt-3">
            <Button type="submit" disabled={busy}>
              {editing ? 'Update' : 'Submit'}
            </Button>
            {editing ? (
              <Button variant="outline-secondary" onClick={() => navigate('/admin/manage-team')}>
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      </Card.Body>
    </Card>
  );
}
