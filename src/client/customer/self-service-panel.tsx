import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CUSTOMER_EDITABLE_FIELDS } from '../../shared/self-service-fields';
import type { MessageKey } from '../../shared/i18n/en';
import { useI18n } from './i18n';
import { notifyError } from './notify';
import {
  cancelOrder,
  correctDetails,
  getSelfService,
  rateOrder,
  type SelfServiceState,
} from './self-service-api';

const DATE_FIELDS = new Set(['passport_expiration', 'date_of_birth', 'arrival_date', 'departure_date']);
const label = (field: string) => `self.field.${field}` as MessageKey;

/** The answers an Admin wrote for the order's stage. */
function StageAnswers({ answers }: { answers: string[] }) {
  const { t } = useI18n();
  if (!answers.length) return null;
  return (
    <section className="c-card" aria-labelledby="answers-title" data-testid="stage-answers">
      <h2 id="answers-title" className="h5">
        {t.t('self.answers.heading')}
      </h2>
      <ul className="mb-0">
        {answers.map((a) => (
          <li key={a}>{a}</li>
        ))}
      </ul>
    </section>
  );
}

/** "Correct my details": the current values, the failed checks beside their field, what changed. */
function CorrectDetails(props: {
  orderId: string;
  token: string;
  state: SelfServiceState;
  onDone: () => void;
}) {
  const { t, language } = useI18n();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = Object.fromEntries(
      Object.entries(values).filter(([f, v]) => v !== (props.state.fields[f] ?? '')),
    );
    setBusy(true);
    const res = await correctDetails(props.orderId, props.token, {
      expectedVersion: props.state.version,
      fields,
      lang: language,
    });
    setBusy(false);
    if (res.code === 200 && res.data) {
      setErrors({});
      setOpen(false);
      setChanged(
        res.data.changes.length
          ? t.t('self.correct.changed', {
              fields: res.data.changes.map((c) => t.t(label(c.field))).join(', '),
            })
          : res.message,
      );
      props.onDone();
      return;
    }
    const byField = Object.fromEntries((res.errors ?? []).map((x) => [x.field, x.message]));
    setErrors(byField);
    if (!Object.keys(byField).length) notifyError(res.message);
  };

  return (
    <section className="c-card" aria-labelledby="correct-title" data-testid="correct-details">
      <h2 id="correct-title" className="h5">
        {t.t('self.correct.open')}
      </h2>
      {changed ? (
        <p aria-live="polite" data-testid="correct-done">
          {changed}
        </p>
      ) : null}
      {!open ? (
        <button
          type="button"
          className="btn btn-outline-primary w-100"
          onClick={() => {
            setValues(
              Object.fromEntries(CUSTOMER_EDITABLE_FIELDS.map((f) => [f, props.state.fields[f] ?? ''])),
            );
            setChanged(null);
            setOpen(true);
          }}
        >
          {t.t('self.correct.open')}
        </button>
      ) : (
        <form onSubmit={submit} noValidate>
          {CUSTOMER_EDITABLE_FIELDS.map((f) => (
            <div className="mb-2" key={f}>
              <label htmlFor={`self-${f}`} className="form-label">
                {t.t(label(f))}
              </label>
              <input
                id={`self-${f}`}
                name={f}
                className={`form-control${errors[f] ? ' is-invalid' : ''}`}
                type={DATE_FIELDS.has(f) ? 'date' : 'text'}
                value={values[f] ?? ''}
                aria-invalid={errors[f] ? true : undefined}
                aria-describedby={errors[f] ? `self-${f}-error` : undefined}
                onChange={(e) => setValues({ ...values, [f]: e.target.value })}
              />
              {errors[f] ? (
                <div id={`self-${f}-error`} className="invalid-feedback d-block">
                  {errors[f]}
                </div>
              ) : null}
            </div>
          ))}
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>
            {busy ? t.t('self.correct.saving') : t.t('self.correct.save')}
          </button>
        </form>
      )}
    </section>
  );
}

/** "Cancel my order": the policy's text and the amount first, then the confirmation. */
function CancelOrder(props: {
  orderId: string;
  token: string;
  state: SelfServiceState;
  onDone: (message: string) => void;
}) {
  const { t, language } = useI18n();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const quote = props.state.cancellation;
  if (!quote) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return;
    setBusy(true);
    const res = await cancelOrder(props.orderId, props.token, {
      reason,
      expectedVersion: props.state.version,
      lang: language,
    });
    setBusy(false);
    if (res.code === 200) props.onDone(res.message);
    else notifyError(res.message);
  };
  return (
    <section className="c-card" aria-labelledby="cancel-title" data-testid="cancel-order">
      <h2 id="cancel-title" className="h5">
        {t.t('self.cancel.open')}
      </h2>
      <p>{quote.policyText}</p>
      {!open ? (
        <button type="button" className="btn btn-outline-danger w-100" onClick={() => setOpen(true)}>
          {t.t('self.cancel.open')}
        </button>
      ) : (
        <form onSubmit={submit}>
          <p className="fw-bold" data-testid="cancel-amount">
            {t.t('self.cancel.amount', { amount: quote.amount })}
          </p>
          <label htmlFor="cancel-reason" className="form-label">
            {t.t('self.cancel.reason')}
          </label>
          <textarea
            id="cancel-reason"
            className="form-control mb-2"
            rows={3}
            maxLength={1000}
            required
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="submit" className="btn btn-danger w-100 mb-2" disabled={busy}>
            {t.t('self.cancel.confirm')}
          </button>
          <button type="button" className="btn btn-link w-100" onClick={() => setOpen(false)}>
            {t.t('self.cancel.keep')}
          </button>
        </form>
      )}
    </section>
  );
}

/** "How did we do?": five scores and a comment; a later answer replaces the earlier. */
export function RatingForm(props: {
  orderId: string;
  token?: string | null;
  signature?: string;
  initialScore: number | null;
  initialComment?: string;
}) {
  const { t } = useI18n();
  const [score, setScore] = useState<number | null>(props.initialScore);
  const [comment, setComment] = useState(props.initialComment ?? '');
  const [busy, setBusy] = useState(false);
  const [thanks, setThanks] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!score) return;
    setBusy(true);
    const res = await rateOrder(
      props.orderId,
      {
        score,
        ...(comment.trim() ? { comment } : {}),
        ...(props.signature ? { signature: props.signature } : {}),
      },
      props.token,
    );
    setBusy(false);
    if (res.code === 200) setThanks(res.message);
    else notifyError(res.message);
  };
  return (
    <section className="c-card" aria-labelledby="rating-title" data-testid="rating">
      <h2 id="rating-title" className="h5">
        {t.t('self.rating.question')}
      </h2>
      <form onSubmit={submit}>
        <fieldset className="mb-2">
          <legend className="visually-hidden">{t.t('self.rating.question')}</legend>
          <div className="d-flex gap-2">
            {[1, 2, 3, 4, 5].map((n) => (
              <button
                key={n}
                type="button"
                className={`btn ${score === n ? 'btn-primary' : 'btn-outline-primary'} flex-fill`}
                aria-pressed={score === n}
                aria-label={t.t('self.rating.score', { score: n })}
                onClick={() => setScore(n)}
              >
                {n}
              </button>
            ))}
          </div>
        </fieldset>
        <label htmlFor="rating-comment" className="form-label">
          {t.t('self.rating.comment')}
        </label>
        <textarea
          id="rating-comment"
          className="form-control mb-2"
          rows={3}
          maxLength={2000}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={busy || !score}>
          {t.t('self.rating.send')}
        </button>
      </form>
      {thanks ? (
        <p className="mt-2 mb-0" aria-live="polite" data-testid="rating-thanks">
          {thanks}
        </p>
      ) : null}
    </section>
  );
}

/**
 * What the customer can do on the track page (docs/product.md, "Customers help themselves"): the
 * answers for their stage, correct their details and cancel before submission, rate a completed order.
 */
export function SelfServicePanel({
  orderId,
  token,
  onChanged,
}: {
  orderId: string;
  token: string;
  onChanged: () => void;
}) {
  const { language } = useI18n();
  const [state, setState] = useState<SelfServiceState | null>(null);
  // The cancellation's confirmation stays once the reloaded state no longer offers the cancellation.
  const [cancelled, setCancelled] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await getSelfService(orderId, token, language);
    if (res.code === 200 && res.data) setState(res.data);
  }, [orderId, token, language]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!state) return null;
  const changed = () => {
    void load();
    onChanged();
  };
  return (
    <>
      <StageAnswers answers={state.answers} />
      {state.editable ? (
        <CorrectDetails orderId={orderId} token={token} state={state} onDone={changed} />
      ) : null}
      {cancelled ? (
        <section className="c-card" aria-live="polite" data-testid="cancel-done">
          <p className="mb-0">{cancelled}</p>
        </section>
      ) : state.cancellable ? (
        <CancelOrder
          orderId={orderId}
          token={token}
          state={state}
          onDone={(message) => {
            setCancelled(message);
            changed();
          }}
        />
      ) : null}
      {state.rating.asked ? (
        <RatingForm
          orderId={orderId}
          token={token}
          initialScore={state.rating.score}
          initialComment={state.rating.comment}
        />
      ) : null}
    </>
  );
}
