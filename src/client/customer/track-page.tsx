import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  type TrackOrderBody,
  type TrackOrderInput,
  type TrackOrderResponse,
  trackOrderBody,
} from '../../shared/contracts/customer';
import { type FoundState, orderIdFromParam, saveToken, trackOrder } from './customer-api';
import { useI18n } from './i18n';
import { CustomerLayout, useBrand } from './layout';
import { dismissError, notifyError } from './notify';

export const TRACK_TITLE = 'Download your Aruba Embarkation Disembarkation Card';

type Cancelled = NonNullable<TrackOrderResponse['cancelled']>;

/** A deleted order tracked with its right e-mail: it was cancelled, and how to reach support. */
function CancelledOrder({ cancelled }: { cancelled: Cancelled }) {
  const { t } = useI18n();
  const { brand, setBrand } = useBrand();
  useEffect(() => setBrand(cancelled.brand), [cancelled.brand, setBrand]);
  return (
    <section className="c-card c-cancelled" aria-labelledby="cancelled-title">
      <h2 id="cancelled-title">{t.t('track.cancelledTitle')}</h2>
      <p>{cancelled.stageMessage}</p>
      <p>
        <a href={brand.links.contact}>{t.t('stage.contactSupport')}</a>
        {' · '}
        <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
      </p>
    </section>
  );
}

type TrackField = keyof TrackOrderInput;
type TrackValues = Record<TrackField, string>;

/** The first message of each field the contract refuses, or the parsed body. */
function check(values: TrackValues): { body?: TrackOrderBody; errors: Partial<Record<TrackField, string>> } {
  const result = trackOrderBody.safeParse(values);
  if (result.success) return { body: result.data, errors: {} };
  const errors: Partial<Record<TrackField, string>> = {};
  for (const issue of result.error.issues) {
    const name = issue.path[0] as TrackField;
    errors[name] ??= issue.message;
  }
  return { errors };
}

/**
 * The two-field track form, checked with the shared contract (docs/decisions/215): on submit, then on
 * every change once a submit was tried; the first refused field takes the focus.
 */
function useTrackForm(initial: TrackValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<TrackField, string>>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const tried = useRef(false);
  const inputs = useRef<Partial<Record<TrackField, HTMLInputElement | null>>>({});
  const field = (name: TrackField) => ({
    name,
    value: values[name],
    ref: (el: HTMLInputElement | null) => {
      inputs.current[name] = el;
    },
    onChange: (e: FormEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: e.currentTarget.value };
      setValues(next);
      if (tried.current) setErrors(check(next).errors);
    },
  });
  const handleSubmit = async (e: FormEvent, onValid: (body: TrackOrderBody) => Promise<void>) => {
    e.preventDefault();
    if (isSubmitting) return;
    tried.current = true;
    const { body, errors: found } = check(values);
    setErrors(found);
    if (!body) {
      const first = (['orderId', 'email'] as const).find((name) => found[name]);
      if (first) inputs.current[first]?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await onValid(body);
    } finally {
      setSubmitting(false);
    }
  };
  const reset = (next: TrackValues) => {
    tried.current = false;
    setValues(next);
    setErrors({});
  };
  return { values, errors, isSubmitting, field, handleSubmit, reset };
}

function TrackForm() {
  const params = useParams();
  const navigate = useNavigate();
  const { brand } = useBrand();
  const { t, language } = useI18n();
  const [cancelled, setCancelled] = useState<Cancelled | null>(null);
  const { errors, isSubmitting, field, handleSubmit, reset } = useTrackForm({
    orderId: orderIdFromParam(params.orderId),
    email: '',
  });

  const title = t.t('page.trackTitle');
  useEffect(() => {
    document.title = title;
  }, [title]);

  const onSubmit = async (values: TrackOrderBody) => {
    setCancelled(null);
    const res = await trackOrder(values.orderId, values.email, language);
    if (res.status === 1 && res.data) {
      saveToken(values.orderId, res.data.token, res.data.expiresIn);
      reset({ orderId: '', email: '' });
      dismissError();
      // "Your order has been found." is said on the details page, in its flow: a toast covered its history.
      const found: FoundState = { found: t.known(res.message) };
      navigate(`/get-new-order-details/${values.orderId}`, { state: found });
    } else if (res.status === 1 && res.cancelled) {
      setCancelled(res.cancelled);
    } else {
      notifyError(t.known(res.message));
    }
  };

  return (
    <section className="c-card c-track" aria-labelledby="track-title">
      <h1 id="track-title">{title}</h1>
      <form onSubmit={(e) => handleSubmit(e, onSubmit)} noValidate>
        <div className="c-field">
          <label htmlFor="track-order-id">{t.t('track.orderId')}</label>
          <input
            id="track-order-id"
            inputMode="numeric"
            autoComplete="off"
            placeholder={t.t('track.orderId')}
            aria-invalid={errors.orderId ? true : undefined}
            aria-describedby={errors.orderId ? 'track-order-id-error' : undefined}
            {...field('orderId')}
          />
          {errors.orderId ? (
            <p id="track-order-id-error" className="c-error" role="alert">
              {t.known(errors.orderId)}
            </p>
          ) : null}
        </div>
        <div className="c-field">
          <label htmlFor="track-email">{t.t('track.email')}</label>
          <input
            id="track-email"
            type="email"
            autoComplete="email"
            placeholder={t.t('track.email')}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'track-email-error' : undefined}
            {...field('email')}
          />
          {errors.email ? (
            <p id="track-email-error" className="c-error" role="alert">
              {t.known(errors.email)}
            </p>
          ) : null}
        </div>
        <button type="submit" className="c-button" disabled={isSubmitting}>
          {t.t(isSubmitting ? 'track.submitting' : 'track.submit')}
        </button>
      </form>
      <p className="c-help">
        <a href={brand.links.contact}>{t.t('track.help')}</a>
      </p>
      <div aria-live="polite">{cancelled ? <CancelledOrder cancelled={cancelled} /> : null}</div>
    </section>
  );
}

/** /track-order/:orderId?: order id and e-mail give a customer token for that order. */
export function Component() {
  return (
    <CustomerLayout>
      <TrackForm />
    </CustomerLayout>
  );
}
