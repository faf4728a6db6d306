import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { type WaitingPolicy, waitingPolicy } from '../../shared/contracts/conversation';
import { CheckboxField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import { DateTime } from '../components/date-time';
import { errorMessage } from '../transport/api';
import {
  useGetWaitingPreviewQuery,
  useSaveWaitingPolicyMutation,
  useSwitchWaitingPolicyMutation,
} from './communication-api';

const STEP_LABEL = {
  reminder: 'Reminder mail to the customer',
  'second-reminder': 'Second reminder mail',
  'contact-customer': 'Move to Contact Customer (a Telecaller calls)',
} as const;
const FIELD = {
  reminder: 'remindAfterMinutes',
  'second-reminder': 'secondReminderAfterMinutes',
  'contact-customer': 'escalateAfterMinutes',
} as const satisfies Record<keyof typeof STEP_LABEL, keyof WaitingPolicy>;

/**
 * /admin/waiting-policy: what happens to an order in Awaiting Customer when the customer does not answer.
 * Its steps (hours in Awaiting), how many orders each step would act on right now, and an on/off switch.
 */
export function Component() {
  const preview = useGetWaitingPreviewQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, saving] = useSaveWaitingPolicyMutation();
  const [toggle, toggling] = useSwitchWaitingPolicyMutation();
  const [hours, setHours] = useState<Record<keyof WaitingPolicy, string> | null>(null);
  useEffect(() => {
    if (preview.data && !hours) {
      const h = (m: number) => String(Math.round((m / 60) * 100) / 100);
      const byField = Object.fromEntries(
        preview.data.steps.map((s) => [FIELD[s.action], h(s.afterMinutes)]),
      ) as Record<keyof WaitingPolicy, string>;
      setHours(byField);
    }
  }, [preview.data, hours]);

  if (preview.error)
    return <LoadError message={errorMessage(preview.error)} onRetry={() => void preview.refetch()} />;
  if (!preview.data || !hours)
    return <div className="p-3 spinner-border spinner-border-sm" role="status" aria-label="Loading" />;
  const data = preview.data;

  const submit = async () => {
    const parsed = waitingPolicy.safeParse({
      remindAfterMinutes: Math.round(Number(hours.remindAfterMinutes) * 60),
      secondReminderAfterMinutes: Math.round(Number(hours.secondReminderAfterMinutes) * 60),
      escalateAfterMinutes: Math.round(Number(hours.escalateAfterMinutes) * 60),
    });
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? 'Check the hours.');
      return;
    }
    try {
      toast.success((await save(parsed.data).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const flip = async (enabled: boolean) => {
    try {
      toast.success((await toggle(enabled).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <section className="p-3" aria-labelledby="waiting-policy-title" style={{ maxWidth: 760 }}>
      <h1 id="waiting-policy-title" className="h4">
        Waiting policy
      </h1>
      <p className="text-muted small">
        When an order has been in Awaiting Customer this long without an answer, the step below happens once.
        An answer from the customer ends the steps. Orders already waiting when the policy is switched on
        start their clock at that moment.
      </p>
      <CheckboxField
        id="waiting-policy-enabled"
        asSwitch
        label={data.enabled ? 'The waiting policy is on' : 'The waiting policy is off'}
        checked={data.enabled}
        disabled={toggling.isLoading}
        onChange={(e) => void flip(e.target.checked)}
      />
      {data.enabled && data.enabledSince && (
        <p className="small text-muted" data-testid="waiting-policy-since">
          On since <DateTime value={data.enabledSince} />
        </p>
      )}
      <p className="small" data-testid="waiting-policy-waiting">
        {data.waiting} order(s) in Awaiting Customer now.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset disabled={saving.isLoading}>
          <table className="table table-sm align-middle" aria-label="Waiting policy steps">
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">After (hours in Awaiting)</th>
                <th scope="col">Would act on now</th>
              </tr>
            </thead>
            <tbody>
              {data.steps.map((s) => (
                <tr key={s.step} data-testid={`waiting-step-${s.step}`}>
                  <td>
                    {s.step}. {STEP_LABEL[s.action]}
                  </td>
                  <td>
                    <TextField
                      id={`waiting-hours-${s.step}`}
                      label={`Hours before step ${s.step}`}
                      labelClassName="visually-hidden"
                      size="sm"
                      inputMode="decimal"
                      value={hours[FIELD[s.action]]}
                      onChange={(e) => setHours({ ...hours, [FIELD[s.action]]: e.target.value })}
                    />
                  </td>
                  <td data-testid={`waiting-step-${s.step}-orders`}>
                    {data.enabled ? `${s.orders} order(s)` : `${s.orders} order(s) once switched on`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Button type="submit">Save the steps</Button>
        </fieldset>
      </form>
    </section>
  );
}
