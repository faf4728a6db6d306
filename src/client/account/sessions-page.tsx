import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { StaffSessionView } from '../../shared/contracts/account';
import { errorMessage } from '../transport/api';
import { signOut } from '../auth/sign-out';
import { DateTime } from '../components/date-time';
import { column, DataTable } from '../components/list-kit/data-table';
import { useEndSessionMutation, useGetSessionsQuery } from './account-api';

const when = (iso: string) => <DateTime value={iso} />;
const sessionId = (s: StaffSessionView) => s.id;

/** /admin/account/sessions: "Your sessions" — where and when one is signed in; end any of them. */
export function Component() {
  const navigate = useNavigate();
  const { data: sessions = [], isLoading, isError, refetch } = useGetSessionsQuery(undefined);
  const [endSession, ending] = useEndSessionMutation();

  const end = async (id: string, current: boolean) => {
    try {
      const res = await endSession(id).unwrap();
      if (current) {
        signOut({ kind: 'success', message: res.message });
        navigate('/', { replace: true });
      } else toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const columns = [
    column<StaffSessionView>('Device', (s) => (
      <>
        {s.device ?? 'Unknown device'}
        {s.current ? <span className="badge text-bg-success ms-2">This session</span> : null}
      </>
    )),
    column<StaffSessionView>('IP address', (s) => s.ip ?? '–'),
    column<StaffSessionView>('Signed in (EST/EDT)', (s) => when(s.createdAt)),
    column<StaffSessionView>('Last active', (s) => when(s.lastSeenAt)),
    column<StaffSessionView>(
      '',
      (s) => (
        <Button
          size="sm"
          variant={s.current ? 'outline-secondary' : 'outline-danger'}
          disabled={ending.isLoading}
          onClick={() => end(s.id, s.current)}
        >
          {s.current ? 'Sign out' : 'End session'}
        </Button>
      ),
      { id: 'action', meta: { className: 'text-end' } },
    ),
  ];

  return (
    <Card className="shadow-sm">
      <Card.Header as="h1" className="h5 mb-0">
        Your sessions
      </Card.Header>
      <Card.Body>
        <p className="text-muted small">
          Every browser you are signed in on. A session ends after 8 idle hours and 12 hours at most. End any
          you do not recognise, then change your password.
        </p>
        {isError ? (
          <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
            The sessions could not be loaded.
            <Button size="sm" variant="outline-danger" onClick={() => refetch()}>
              Retry
            </Button>
          </div>
        ) : (
          <DataTable
            rows={sessions}
            columns={columns}
            rowId={sessionId}
            label="Your sessions"
            className="table table-sm table-hover"
            wrapClassName="table-responsive"
            empty={isLoading ? 'Loading…' : null}
          />
        )}
      </Card.Body>
    </Card>
  );
}
