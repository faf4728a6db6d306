import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { useParams } from 'react-router';
import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import { useGetTeamMemberQuery, useGetTeamMembersQuery } from './team-api';
import { TeamForm } from './team-form';
import { RoutingForm } from './routing-form';
import { TeamList } from './team-list';

export const TEAM_READ_ONLY_NOTICE =
  'You can view the team. Only an Admin or a Manager can add, edit or delete members.';
export const TEAM_NO_ACCESS_NOTICE = 'You do not have permission to view the team.';

/** /admin/manage-team and /admin/manage-team/:teamMemberId (Manage Team). */
export function Component() {
  const user = useSessionUser();
  const role = user?.type ?? null;
  const canRead = can(role, 'team.read');
  const canWrite = can(role, 'team.write');
  const { teamMemberId } = useParams();
  const editId = teamMemberId && /^\d+$/.test(teamMemberId) ? Number(teamMemberId) : undefined;
  const list = useGetTeamMembersQuery(undefined, { skip: !canRead });
  const member = useGetTeamMemberQuery(editId ?? 0, { skip: !canWrite || editId === undefined });

  return (
    <div>
      <h1 className="h4 mb-3">Manage Team</h1>
      {!canRead ? (
        <Alert variant="warning">{TEAM_NO_ACCESS_NOTICE}</Alert>
      ) : (
        <>
          {canWrite ? (
            teamMemberId && editId === undefined ? (
              <Alert variant="danger">Team member not found.</Alert>
            ) : editId !== undefined && !member.isError && (member.isFetching || !member.data) ? (
              <div className="py-3">
                <Spinner size="sm" animation="border" /> Loading…
              </div>
            ) : editId !== undefined && member.isError ? (
              <Alert variant="danger">Team member not found.</Alert>
            ) : (
              <>
                <TeamForm
                  key={editId ?? 'new'}
                  member={editId !== undefined ? member.data : undefined}
                  actorType={role ?? ''}
                  actorId={user?.id}
                />
                {editId !== undefined && member.data ? (
                  <RoutingForm key={`routing-${editId}`} member={member.data} />
                ) : null}
              </>
            )
          ) : (
            <Alert variant="info">{TEAM_READ_ONLY_NOTICE}</Alert>
          )}
          <TeamList
            members={list.data}
            loading={list.isLoading}
            canWrite={canWrite}
            actor={{ id: user?.id ?? 0, type: role ?? '' }}
          />
        </>
      )}
    </div>
  );
}
