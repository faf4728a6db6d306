import { type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { CUSTOMER_STAGES, type CustomerStage } from '../../shared/customer-stage';
import {
  cancellationPolicy,
  type CancellationPolicy,
  feedbackPolicy,
  type FeedbackPolicy,
  FEEDBACK_MAX_MINUTES,
  MAX_STAGE_ANSWERS,
  trackPageAnswers,
  type TrackPageAnswers,
} from '../../shared/contracts/self-service';
import { can } from '../../shared/permissions';
import { CheckboxField, TextareaField, TextField } from '../components/form-kit/form-field';
import { LoadError } from '../components/load-error';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import {
  useGetCancellationPolicyQuery,
  useGetFeedbackPolicyQuery,
  useGetTrackPageAnswersQuery,
  useSaveCancellationPolicyMutation,
  useSaveFeedbackPolicyMutation,
  useSaveTrackPageAnswersMutation,
} from './self-service-settings-api';

type Errors = Record<string, string>;
/** The failed rules of a form, keyed by the field's path ("untouchedPercent", "answers.2.es"). */
function errorsOf(error: z.ZodError): Errors {
  const out: Errors = {};
  for (const issue of error.issues) out[issue.path.join('.') || 'form'] ??= issue.message;
  return out;
}

/** Saves a value checked by its contract first; the fields that fail are marked and nothing is sent. */
function useSave<T>(schema: z.ZodType<T>, save: (v: T) => { unwrap(): Promise<{ message: string }> }) {
  const [errors, setErrors] = useState<Errors>({});
  const submit = async (value: unknown) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error));
      return;
    }
    setErrors({});
    try {
      toast.success((await save(parsed.data).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return { errors, submit };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <Card className="mb-3" as="section" aria-labelledby={`self-service-${slug}`}>
      <Card.Body>
        <h2 id={`self-service-${slug}`} className="h6">
          {title}
        </h2>
        {children}
      </Card.Body>
    </Card>
  );
}

function CancellationForm({ initial }: { initial: CancellationPolicy }) {
  const [draft, setDraft] = useState(initial);
  const [save, { isLoading }] = useSaveCancellationPolicyMutation();
  const { errors, submit } = useSave(cancellationPolicy, save);
  const num = (field: keyof CancellationPolicy, label: string, help: string) => (
    <TextField
      id={`cancellation-${field}`}
      label={label}
      help={help}
      type="number"
      min={0}
      max={100}
      style={{ maxWidth: 280 }}
      value={Number.isNaN(draft[field]) ? '' : draft[field]}
      error={errors[field]}
      onChange={(e) =>
        setDraft({ ...draft, [field]: e.target.value === '' ? Number.NaN : Number(e.target.value) })
      }
    />
  );
  return (
    <Section title="Cancellation policy">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(draft);
        }}
      >
        <fieldset disabled={isLoading} className="d-flex flex-wrap gap-3 align-items-end">
          {num('untouchedPercent', 'Refund while untouched (%)', 'New, and nobody has worked on it yet')}
          {num(
            'workedOnPercent',
            'Refund once worked on (%)',
            'A remark, a hold or a mail beyond the confirmation',
          )}
          <Button type="submit">Save cancellation policy</Button>
        </fieldset>
      </form>
      <p className="small text-muted mt-2 mb-0">Once the order is submitted, customers cannot cancel.</p>
    </Section>
  );
}

function FeedbackForm({ initial }: { initial: FeedbackPolicy }) {
  const [draft, setDraft] = useState(initial);
  const [save, { isLoading }] = useSaveFeedbackPolicyMutation();
  const { errors, submit } = useSave(feedbackPolicy, save);
  return (
    <Section title="Feedback policy">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(draft);
        }}
      >
        <fieldset disabled={isLoading} className="d-flex flex-wrap gap-3 align-items-end">
          <CheckboxField
            id="feedback-enabled"
            label="Ask customers how it went"
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
          />
          <TextField
            id="feedback-minutes"
            label="Ask after (minutes)"
            help={`After the order is Completed with its card sent; 0 to ${FEEDBACK_MAX_MINUTES.toLocaleString('en-US')}, 0 at the next minute`}
            type="number"
            min={0}
            max={FEEDBACK_MAX_MINUTES}
            style={{ maxWidth: 320 }}
            value={Number.isNaN(draft.askAfterMinutes) ? '' : draft.askAfterMinutes}
            error={errors.askAfterMinutes}
            onChange={(e) =>
              setDraft({
                ...draft,
                askAfterMinutes: e.target.value === '' ? Number.NaN : Number(e.target.value),
              })
            }
          />
          <Button type="submit">Save feedback policy</Button>
        </fieldset>
      </form>
    </Section>
  );
}

const LANGUAGES = [
  ['en', 'English'],
  ['es', 'Spanish'],
  ['nl', 'Dutch'],
  ['pap', 'Papiamento'],
  ['pt', 'Portuguese'],
] as const;
const STAGE_LABELS: Record<CustomerStage, string> = {
  received: 'Received',
  in_review: 'In review',
  action_needed: 'Action needed',
  with_government: 'With the government',
  approved: 'Approved',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
};
type Answer = TrackPageAnswers['answers'][number];

function AnswersForm({ initial }: { initial: TrackPageAnswers }) {
  const [list, setList] = useState<Answer[]>(initial.answers);
  const [save, { isLoading }] = useSaveTrackPageAnswersMutation();
  const { errors, submit } = useSave(trackPageAnswers, save);
  const change = (i: number, lang: (typeof LANGUAGES)[number][0], v: string) =>
    setList(list.map((a, j) => (j === i ? { ...a, [lang]: v } : a)));
  // Empty translations are left out: the track page shows the English text where one lacks.
  const body = () => ({
    answers: list.map((a) =>
      Object.fromEntries(Object.entries(a).filter(([k, v]) => k === 'stage' || k === 'en' || v !== '')),
    ),
  });
  return (
    <Section title="Track page answers">
      <p className="small text-muted">
        Up to {MAX_STAGE_ANSWERS} short answers per stage, text only, in the five languages of the track page
        (English is shown where a translation is empty).
      </p>
      {errors.form || errors.answers ? <Alert variant="danger">{errors.form ?? errors.answers}</Alert> : null}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(body());
        }}
      >
        <fieldset disabled={isLoading}>
          {CUSTOMER_STAGES.map((stage) => {
            const here = list.map((a, i) => ({ a, i })).filter(({ a }) => a.stage === stage);
            return (
              <fieldset key={stage} className="border rounded p-2 mb-3" aria-label={STAGE_LABELS[stage]}>
                <legend className="h6 fs-6 w-auto px-1 mb-1">
                  {STAGE_LABELS[stage]} ({here.length}/{MAX_STAGE_ANSWERS})
                </legend>
                {here.map(({ a, i }, n) => (
                  <div key={i} className="border-top pt-2 mb-2">
                    <div className="row g-2">
                      {LANGUAGES.map(([lang, name]) => (
                        <TextareaField
                          key={lang}
                          id={`answer-${i}-${lang}`}
                          className="col-12 col-md-6"
                          label={`${STAGE_LABELS[stage]} answer ${n + 1}, ${name}`}
                          labelClassName="small"
                          rows={2}
                          maxLength={300}
                          value={a[lang] ?? ''}
                          error={errors[`answers.${i}.${lang}`]}
                          onChange={(e) => change(i, lang, e.target.value)}
                        />
                      ))}
                    </div>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      className="mt-1"
                      onClick={() => setList(list.filter((_, j) => j !== i))}
                    >
                      Remove {STAGE_LABELS[stage]} answer {n + 1}
                    </Button>
                  </div>
                ))}
                {here.length < MAX_STAGE_ANSWERS ? (
                  <Button
                    size="sm"
                    variant="outline-primary"
                    onClick={() => setList([...list, { stage, en: '' }])}
                  >
                    Add an answer for {STAGE_LABELS[stage]}
                  </Button>
                ) : null}
              </fieldset>
            );
          })}
          <Button type="submit">Save answers</Button>
        </fieldset>
      </form>
    </Section>
  );
}

/** /admin/self-service-settings (Admin): the cancellation ladder, the feedback mail, the track page's answers. */
export function Component() {
  const allowed = can(sessionUser()?.type ?? null, 'settings.selfService');
  const cancellation = useGetCancellationPolicyQuery(undefined, {
    skip: !allowed,
    refetchOnMountOrArgChange: true,
  });
  const feedback = useGetFeedbackPolicyQuery(undefined, { skip: !allowed, refetchOnMountOrArgChange: true });
  const answers = useGetTrackPageAnswersQuery(undefined, { skip: !allowed, refetchOnMountOrArgChange: true });

  if (!allowed) return <Alert variant="warning">Only an Admin can change the customers' self-service.</Alert>;
  const failed = cancellation.error ?? feedback.error ?? answers.error;
  if (failed)
    return (
      <LoadError
        message={errorMessage(failed)}
        onRetry={() => {
          void cancellation.refetch();
          void feedback.refetch();
          void answers.refetch();
        }}
      />
    );
  return (
    <section className="p-3" aria-labelledby="self-service-title" style={{ maxWidth: 960 }}>
      <h1 id="self-service-title" className="h4">
        Customer self-service
      </h1>
      <p className="text-muted small">
        What customers can do themselves on the track page: cancel before submission, rate the order, and read
        short answers for the stage of their order.
      </p>
      {cancellation.data && feedback.data && answers.data ? (
        <>
          <CancellationForm initial={cancellation.data} />
          <FeedbackForm initial={feedback.data} />
          <AnswersForm initial={answers.data} />
        </>
      ) : (
        <div className="spinner-border spinner-border-sm" role="status" aria-label="Loading" />
      )}
    </section>
  );
}
