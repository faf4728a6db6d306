import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { PROCESSING_MODES } from '../../shared/constants';
import { type DueTimePolicy, dueTimePolicy } from '../../shared/contracts/due-time';
import { DateTime } from '../components/date-time';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { CheckboxField, SelectField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import { useGetDueTimePolicyQuery, useSaveDueTimePolicyMutation } from './list-api';
import { SubmissionPolicyCard } from './submission-policy-card';

type Mode = (typeof PROCESSING_MODES)[number];

interface DraftProps {
  draft: DueTimePolicy;
  setDraft: (draft: DueTimePolicy) => void;
}

/** One processing mode's hours: from payment, before arrival, and how the hours from payment count. */
function ModeCard({ mode, draft, setDraft }: DraftProps & { mode: Mode }) {
  const setMode = (field: 'fromPaymentHours' | 'beforeArrivalHours', v: string) =>
    setDraft({ ...draft, modes: { ...draft.modes, [mode]: { ...draft.modes[mode], [field]: Number(v) } } });
  return (
    <Card className="mb-3">
      <Card.Body className="d-flex flex-wrap gap-3">
        <h2 className="h6 w-100 mb-0">{mode}</h2>
        <TextField
          id={`due-time-${mode}-payment`}
          label="Hours from payment"
          type="number"
          min={1}
          max={8760}
          value={draft.modes[mode].fromPaymentHours}
          onChange={(e) => setMode('fromPaymentHours', e.target.value)}
        />
        <TextField
          id={`due-time-${mode}-arrival`}
          label="Hours before arrival"
          type="number"
          min={0}
          max={8760}
          value={draft.modes[mode].beforeArrivalHours}
          onChange={(e) => setMode('beforeArrivalHours', e.target.value)}
        />
        <SelectField
          id={`due-time-${mode}-clock`}
          label="Hours from payment count"
          value={draft.modes[mode].clock ?? 'calendar'}
          onChange={(e) =>
            setDraft({
              ...draft,
              modes: {
                ...draft.modes,
                [mode]: { ...draft.modes[mode], clock: e.target.value as 'calendar' | 'working' },
              },
            })
          }
        >
          <option value="calendar">Every hour (calendar)</option>
          <option value="working">Working hours only</option>
        </SelectField>
      </Card.Body>
    </Card>
  );
}

/** The customer answer's own target: on or off, its hours and how they count. */
function CustomerAnswerCard({ draft, setDraft }: DraftProps) {
  return (
    <Card className="mb-3">
      <Card.Body className="d-flex flex-wrap gap-3 align-items-end">
        <h2 className="h6 w-100 mb-0">Customer answers</h2>
        <CheckboxField
          id="due-time-answer-on"
          className="w-100"
          label="A customer's answer has its own target"
          help="The order is then due within these hours of the answer, unless it was due sooner; its next move ends the target."
          checked={draft.customerAnswer !== null}
          onChange={(e) =>
            setDraft({
              ...draft,
              customerAnswer: e.target.checked ? { hours: 4, clock: 'calendar' } : null,
            })
          }
        />
        {draft.customerAnswer ? (
          <>
            <TextField
              id="due-time-answer-hours"
              label="Hours from the answer"
              type="number"
              min={1}
              max={8760}
              value={draft.customerAnswer.hours}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  customerAnswer: { ...draft.customerAnswer!, hours: Number(e.target.value) },
                })
              }
            />
            <SelectField
              id="due-time-answer-clock"
              label="Hours from the answer count"
              value={draft.customerAnswer.clock}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  customerAnswer: {
                    ...draft.customerAnswer!,
                    clock: e.target.value as 'calendar' | 'working',
                  },
                })
              }
            >
              <option value="calendar">Every hour (calendar)</option>
              <option value="working">Working hours only</option>
            </SelectField>
          </>
        ) : null}
      </Card.Body>
    </Card>
  );
}

/**
 * /admin/due-time-policy: hours per processing mode, the customer answer's own target and the at-risk
 * margin (Admin and Manager change them).
 */
export function Component() {
  const role = sessionUser()?.type ?? null;
  const editable = can(role, 'dueTime.write');
  const policy = useGetDueTimePolicyQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, { isLoading }] = useSaveDueTimePolicyMutation();
  const [draft, setDraft] = useState<DueTimePolicy | null>(null);
  useEffect(() => {
    if (policy.data) {
      const { updatedAt: _a, updatedBy: _b, ...value } = policy.data;
      setDraft({ ...value, customerAnswer: value.customerAnswer ?? null });
    }
  }, [policy.data]);

  if (policy.error)
    return <LoadError message={errorMessage(policy.error)} onRetry={() => void policy.refetch()} />;
  if (!draft)
    return <div className="p-3 spinner-border spinner-border-sm" role="status" aria-label="Loading" />;

  const submit = async () => {
    const parsed = dueTimePolicy.safeParse(draft);
    if (!parsed.success) {
      toast.error(`${parsed.error.issues[0]?.path.join(' ')}: ${parsed.error.issues[0]?.message}`);
      return;
    }
    try {
      const res = await save(parsed.data).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section className="p-3" aria-labelledby="due-time-title" style={{ maxWidth: 720 }}>
      <h1 id="due-time-title" className="h4">
        Due-time policy
      </h1>
      <p className="text-muted small">
        An open order is due at the earlier of: payment (or its processing day, when later) plus the hours
        from payment, and the start of the arrival day minus the hours before arrival. Hours set to count
        working hours follow the <Link to="/admin/working-hours">working hours</Link>.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset disabled={!editable || isLoading}>
          {PROCESSING_MODES.map((mode) => (
            <ModeCard key={mode} mode={mode} draft={draft} setDraft={setDraft} />
          ))}
          <CustomerAnswerCard draft={draft} setDraft={setDraft} />
          <TextField
            id="due-time-margin"
            className="mb-3"
            style={{ maxWidth: 240 }}
            label="At risk when less than (hours) left"
            type="number"
            min={1}
            max={8760}
            value={draft.atRiskMarginHours}
            onChange={(e) => setDraft({ ...draft, atRiskMarginHours: Number(e.target.value) })}
          />
          {editable ? <Button type="submit">Save</Button> : null}
        </fieldset>
      </form>
      {!editable ? <p className="mt-2 small">Only an Admin or a Manager can change the policy.</p> : null}
      {policy.data?.updatedAt ? (
        <p className="mt-3 small text-muted">
          Last changed by {policy.data.updatedBy} on <DateTime value={policy.data.updatedAt} />.
        </p>
      ) : null}
      {can(role, 'submission.policy') ? <SubmissionPolicyCard /> : null}
    </section>
  );
}
