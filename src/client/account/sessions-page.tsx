import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { errorMessage } from '../app/api';
import { signOut } from '../auth/sign-out';
import { DateTime } from '../components/date-time';
import { useEndSessionMutation, useGetSessionsQuery } from './account-api';

const when = (iso: string) => <DateTime value={iso} />;

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
          <Table responsive hover size="sm" aria-label="Your sessions">
            <thead>
              <tr>
                <th>Device</th>
                <th>IP address</th>
                <th>Signed in (EST/EDT)</th>
                <th>Last active</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {isLoading ? (
                <tr>
                  <td colSpan={5}>Loading…</td>
                </tr>
              ) : (
                sessions.map((s) => (
                  <tr key={s.id}>
                    <td>
                      {s.device ?? 'Unknown device'}
                      {s.current ? <span className="badge text-bg-success ms-2">This session</span> : null}
                    </td>
                    <td>{s.ip ?? '–'}</td>
                    <td>{when(s.createdAt)}</td>
                    <td>{when(s.lastSeenAt)}</td>
                    <td className="text-end">
                      <Button
                        size="sm"
                        variant={s.current ? 'outline-secondary' : 'outline-danger'}
                        disabled={ending.isLoading}
                        onClick={() => end(s.id, s.current)}
                      >
                        {s.current ? 'Sign out' : 'End session'}
                      </Button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
