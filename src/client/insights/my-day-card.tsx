import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { useGetMyDayQuery } from './insights-api';

/** "My day" for Team, Telecaller and Night Staff: what they completed today and what is still theirs. */
export function MyDayCard() {
  const { data } = useGetMyDayQuery(undefined, { refetchOnMountOrArgChange: 60 });
  return (
    <Card className="shadow-sm mb-3" as="section" aria-label="My day" data-testid="my-day">
      <Card.Body className="py-2 d-flex flex-wrap gap-4 align-items-center">
        <strong>My day</strong>
        <span>
          Completed today: <strong data-testid="my-day-completed">{data?.completedToday ?? '…'}</strong>
        </span>
        <span>
          Open assigned orders:{' '}
          <Link to="/admin/my-order">
            <strong data-testid="my-day-open">{data?.openAssigned ?? '…'}</strong>
          </Link>
        </span>
      </Card.Body>
    </Card>
  );
}
