import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { openOrdersText, type TeamMember } from '../../shared/contracts/team';
import { MSG } from '../../shared/messages';
import { useGetMemberOpenOrdersQuery } from './team-api';
import { CheckboxField, SelectField } from '../components/form-kit/form-field';

export interface DeleteChoice {
  openOrders?: 'release' | 'reassign';
  reassignTo?: number;
}

interface Props {
  member: TeamMember | null;
  /** Who may take over the orders: the other members. */
  members: TeamMember[];
  busy: boolean;
  onYes: (choice: DeleteChoice) => void;
  onNo: () => void;
}

/**
 * The Delete confirmation (product wording); when the member holds open orders it says how many and
 * offers to release them to their queues or reassign them to another member (decision 317).
 */
export function DeleteMemberDialog({ member, members, busy, onYes, onNo }: Props) {
  const { data, isFetching } = useGetMemberOpenOrdersQuery(member?.id ?? 0, { skip: !member });
  const held = member && !isFetching ? (data?.openOrders ?? 0) : 0;
  const [choice, setChoice] = useState<'release' | 'reassign'>('release');
  const [heir, setHeir] = useState('');
  const others = members.filter((m) => m.id !== member?.id);
  const ready = held === 0 || choice === 'release' || heir !== '';
  const yes = () =>
    onYes(
      held === 0
        ? {}
        : choice === 'release'
          ? { openOrders: 'release' }
          : { openOrders: 'reassign', reassignTo: Number(heir) },
    );
  return (
    <Modal show={!!member} onHide={onNo} centered>
      <Modal.Body className="py-4">
        <p className="mb-0 fs-5 text-center">{MSG.confirmDelete}</p>
        {held > 0 && member ? (
          <fieldset className="mt-3" data-testid="open-orders-choice">
            <legend className="fs-6">{openOrdersText(member.name, held)}</legend>
            <CheckboxField
              type="radio"
              id="open-orders-release"
              name="open-orders"
              label="Release them to their queues"
              checked={choice === 'release'}
              onChange={() => setChoice('release')}
            />
            <CheckboxField
              type="radio"
              id="open-orders-reassign"
              name="open-orders"
              label="Reassign them to"
              checked={choice === 'reassign'}
              onChange={() => setChoice('reassign')}
            />
            <SelectField
              id="open-orders-heir"
              size="sm"
              className="mt-1"
              label="Member who takes over the orders"
              labelClassName="visually-hidden"
              value={heir}
              disabled={choice !== 'reassign'}
              onChange={(e) => setHeir(e.target.value)}
            >
              <option value="">Choose a member</option>
              {others.map((m) => (
                <option key={m.id} value={String(m.id)}>
                  {m.name}
                </option>
              ))}
            </SelectField>
          </fieldset>
        ) : null}
      </Modal.Body>
      <Modal.Footer className="justify-content-center">
        <Button variant="primary" onClick={yes} disabled={busy || isFetching || !ready}>
          Yes
        </Button>
        <Button variant="secondary" onClick={onNo} disabled={busy}>
          No
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
