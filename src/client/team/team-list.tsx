import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { TeamMember } from '../../shared/contracts/team';
import { MSG } from '../../shared/messages';
import { errorMessage } from '../transport/api';
import { column, DataTable } from '../components/list-kit/data-table';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import { type DeleteChoice, DeleteMemberDialog } from './delete-member-dialog';
import { useDeleteTeamMemberMutation, useResetTwoFactorMutation } from './team-api';

interface Props {
  members: TeamMember[] | undefined;
  loading: boolean;
  /** Edit and Delete are shown only with team.write. */
  canWrite: boolean;
  actor: { id: number; type: string };
}

const memberId = (m: TeamMember) => String(m.id);

/** Team Member List: type shown as memberRole; Edit and Delete with a confirmation. */
export function TeamList({ members, loading, canWrite, actor }: Props) {
  const [pending, setPending] = useState<TeamMember | null>(null);
  const [deleteMember, { isLoading: deleting }] = useDeleteTeamMemberMutation();
  const [resetting, setResetting] = useState<TeamMember | null>(null);
  const [resetTwoFactor, { isLoading: resetBusy }] = useResetTwoFactorMutation();
  const confirmReset = async (currentPassword: string) => {
    if (!resetting) return;
    try {
      toast.success((await resetTwoFactor({ id: resetting.id, currentPassword }).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setResetting(null);
    }
  };
  // Mirrors the server: nobody deletes themselves, only an Admin touches an Admin.
  const mayTouch = (m: TeamMember) => m.type !== 'Admin' || actor.type === 'Admin';

  const confirmDelete = async (choice: DeleteChoice) => {
    if (!pending) return;
    try {
      await deleteMember({ teamMemberId: pending.id, ...choice }).unwrap();
      toast.success(MSG.teamDeleted);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  const columns = [
    column<TeamMember>('#', (_, i) => i + 1),
    column<TeamMember>('Name', (m) => m.name),
    column<TeamMember>('Email', (m) => m.email),
    column<TeamMember>('Type', (m) => m.memberRole),
    ...(canWrite
      ? [
          column<TeamMember>(
            'Action',
            (m) => (
              <>
                {mayTouch(m) ? (
                  <Link to={`/admin/manage-team/${m.id}`} className="btn btn-sm btn-outline-primary me-2">
                    Edit
                  </Link>
                ) : null}
                {mayTouch(m) && m.id !== actor.id ? (
                  <Button size="sm" variant="outline-danger" onClick={() => setPending(m)}>
                    Delete
                  </Button>
                ) : null}
                {actor.type === 'Admin' && m.id !== actor.id ? (
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    className="ms-2"
                    onClick={() => setResetting(m)}
                  >
                    Reset 2FA
                  </Button>
                ) : null}
              </>
            ),
            { meta: { className: 'text-nowrap' } },
          ),
        ]
      : []),
  ];

  return (
    <Card className="shadow-sm">
      <Card.Header as="h2" className="h6 mb-0">
        Team Member List
      </Card.Header>
      <Card.Body className="p-0">
        <DataTable
          rows={loading ? [] : (members ?? [])}
          columns={columns}
          rowId={memberId}
          label="Team Member List"
          className="table table-striped table-hover mb-0 align-middle"
          wrapClassName="table-responsive"
          empty={
            loading ? (
              <>
                <Spinner size="sm" animation="border" /> Loading…
              </>
            ) : (
              MSG.noData
            )
          }
        />
      </Card.Body>
      <DeleteMemberDialog
        key={pending?.id ?? 0}
        member={pending}
        members={members ?? []}
        busy={deleting}
        onYes={confirmDelete}
        onNo={() => setPending(null)}
      />
      <ResetTwoFactorDialog
        member={resetting}
        busy={resetBusy}
        onConfirm={(password) => void confirmReset(password)}
        onCancel={() => setResetting(null)}
      />
    </Card>
  );
}
