import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ROLES, type Role } from '../../shared/constants';
import {
  addTeamMemberBody,
  type EditTeamMemberForm,
  editTeamMemberForm,
  type TeamMember,
} from '../../shared/contracts/team';
import { errorMessage } from '../app/api';
import {
  useAddTeamMemberMutation,
  useGetTeamMemberTypesQuery,
  useUpdateTeamMemberMutation,
} from './team-api';

interface Props {
  /** The member being edited; absent when adding. */
  member?: TeamMember | undefined;
  actorType: string;
}

/** The add/edit form of Manage Team (spec §2, §5): the shared zod contract is its resolver. */
export function TeamForm({ member, actorType }: Props) {
  const navigate = useNavigate();
  const editing = !!member;
  const { data: types } = useGetTeamMemberTypesQuery();
  const [addMember, adding] = useAddTeamMemberMutation();
  const [updateMember, updating] = useUpdateTeamMemberMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<EditTeamMemberForm>({
    resolver: zodResolver(editing ? editTeamMemberForm : addTeamMemberBody),
    defaultValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      password: '',
      type: (member?.type ?? '') as Role,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = member
        ? await updateMember({ ...values, password: values.password ?? '', tmId: member.id }).unwrap()
        : await addMember({ ...values, password: values.password ?? '' }).unwrap();
      toast.success(res.message);
      if (member) navigate('/admin/manage-team');
      else reset({ name: '', email: '', password: '', type: '' as Role });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

  // Only an Admin may hand out the Admin type (DESIGN §5); the server refuses it anyway.
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
        <Form noValidate onSubmit={onSubmit} aria-label={editing ? 'Edit team member' : 'Add team member'}>
          <Row className="g-3">
            <Col md={6}>
              <Form.Group controlId="team-name">
                <Form.Label>Name</Form.Label>
                <Form.Control autoComplete="off" {...register('name')} isInvalid={!!errors.name} />
                <Form.Control.Feedback type="invalid">{errors.name?.message}</Form.Control.Feedback>
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="team-email">
                <Form.Label>Email</Form.Label>
                <Form.Control
                  type="email"
                  autoComplete="off"
                  {...register('email')}
                  isInvalid={!!errors.email}
                />
                <Form.Control.Feedback type="invalid">{errors.email?.message}</Form.Control.Feedback>
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="team-password">
                <Form.Label>Password</Form.Label>
                <Form.Control
                  type="password"
                  autoComplete="new-password"
                  placeholder={editing ? 'Leave empty to keep the current password' : ''}
                  {...register('password')}
                  isInvalid={!!errors.password}
                />
                <Form.Control.Feedback type="invalid">{errors.password?.message}</Form.Control.Feedback>
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="team-type">
                <Form.Label>Type</Form.Label>
                <Form.Select {...register('type')} isInvalid={!!errors.type}>
                  <option value="">Select type</option>
                  {options.map((o) => (
                    <option key={o.type} value={o.type} disabled={o.disabled}>
                      {o.type}
                    </option>
                  ))}
                </Form.Select>
                <Form.Control.Feedback type="invalid">{errors.type?.message}</Form.Control.Feedback>
              </Form.Group>
            </Col>
          </Row>
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
        </Form>
      </Card.Body>
    </Card>
  );
}
