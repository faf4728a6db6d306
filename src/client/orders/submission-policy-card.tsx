import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import {
  SUGGESTED_WINDOW_HOURS,
  type SubmissionPolicy,
  submissionPolicy,
} from '../../shared/contracts/submission';
import { errorMessage } from '../transport/api';
import { TextField } from '../components/form-kit/form-field';
import { useGetSubmissionPolicyQuery, useSaveSubmissionPolicyMutation } from './submission-policy-api';

/**
 * The submission policy (Admin and Manager): the window before arrival in which the government's portal
 * accepts an application, the minutes a machine's job may take, and the auto-send of government cards.
 */
export function SubmissionPolicyCard() {
  const policy = useGetSubmissionPolicyQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, { isLoading }] = useSaveSubmissionPolicyMutation();
  const [draft, setDraft] = useState<{ window: string; jobMinutes: string; autoSendCard: boolean } | null>(
    null,
  );
  useEffect(() => {
    if (policy.data) {
      setDraft({
        window: policy.data.windowHours === null ? '' : String(policy.data.windowHours),
        jobMinutes: String(policy.data.jobMinutes),
        autoSendCard: policy.data.autoSendCard,
      });
    }
  }, [policy.data]);
  if (!draft) return null;

  const submit = async () => {
    const value: SubmissionPolicy = {
      windowHours: draft.window.trim() === '' ? null : Number(draft.window),
      jobMinutes: Number(draft.jobMinutes),
      autoSendCard: draft.autoSendCard,
    };
    const parsed = submissionPolicy.safeParse(value);
    if (!parsed.success) {
      toast.error(`${parsed.error.issues[0]?.path.join(' ')}: ${parsed.error.issues[0]?.message}`);
      return;
    }
    try {
      const res = await save(parsed.data).unwrap();
      toast.success(
        res.data?.moved ? `${res.message} ${res.data.moved} orders moved with the window.` : res.message,
      );
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <Card className="mt-4" as="section" aria-labelledby="submission-policy-title">
      <Card.Body>
        <h2 id="submission-policy-title" className="h5">
          Submission to the government
        </h2>
        <p className="text-muted small">
          The government's portal accepts an application only shortly before arrival. We suggest{' '}
          {SUGGESTED_WINDOW_HOURS} hours (7 days): orders arriving later wait in Future Orders, under the
          month their window opens, and enter New or Priority Orders that day. Leave it empty for no window.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <fieldset disabled={isLoading} className="d-flex flex-wrap gap-3 align-items-end">
            <TextField
              id="submission-window-hours"
              label="Window before arrival (hours)"
              type="number"
              min={1}
              max={2160}
              placeholder={String(SUGGESTED_WINDOW_HOURS)}
              value={draft.window}
              onChange={(e) => setDraft({ ...draft, window: e.target.value })}
            />
            <TextField
              id="submission-job-minutes"
              label="A machine's job returns after (minutes)"
              type="number"
              min={1}
              max={1440}
              value={draft.jobMinutes}
              onChange={(e) => setDraft({ ...draft, jobMinutes: e.target.value })}
            />
            <Form.Check
              id="submission-auto-send"
              type="switch"
              label="Send a card from government mail and complete the order by itself"
              checked={draft.autoSendCard}
              onChange={(e) => setDraft({ ...draft, autoSendCard: e.target.checked })}
            />
            <Button type="submit">Save</Button>
          </fieldset>
        </form>
      </Card.Body>
    </Card>
  );
}
