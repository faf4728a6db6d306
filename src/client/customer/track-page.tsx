import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import {
  type TrackOrderBody,
  type TrackOrderInput,
  type TrackOrderResponse,
  trackOrderBody,
} from '../../shared/contracts/customer';
import { orderIdFromParam, saveToken, trackOrder } from './customer-api';
import { useI18n } from './i18n';
import { CustomerLayout, useBrand } from './layout';
import { notifyError, notifySuccess } from './notify';

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

function TrackForm() {
  const params = useParams();
  const navigate = useNavigate();
  const { brand } = useBrand();
  const { t, language } = useI18n();
  const [cancelled, setCancelled] = useState<Cancelled | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TrackOrderInput, unknown, TrackOrderBody>({
    resolver: zodResolver(trackOrderBody),
    defaultValues: { orderId: orderIdFromParam(params.orderId), email: '' },
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
      notifySuccess(t.known(res.message));
      navigate(`/get-new-order-details/${values.orderId}`);
    } else if (res.status === 1 && res.cancelled) {
      setCancelled(res.cancelled);
    } else {
      notifyError(t.known(res.message));
    }
  };

  return (
    <section className="c-card c-track" aria-labelledby="track-title">
      <h1 id="track-title">{title}</h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate>
        <div className="c-field">
          <label htmlFor="track-order-id">{t.t('track.orderId')}</label>
          <input
            id="track-order-id"
            inputMode="numeric"
            autoComplete="off"
            placeholder={t.t('track.orderId')}
            aria-invalid={errors.orderId ? true : undefined}
            aria-describedby={errors.orderId ? 'track-order-id-error' : undefined}
            {...register('orderId')}
          />
          {errors.orderId?.message ? (
            <p id="track-order-id-error" className="c-error" role="alert">
              {t.known(errors.orderId.message)}
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
            {...register('email')}
          />
          {errors.email?.message ? (
            <p id="track-email-error" className="c-error" role="alert">
              {t.known(errors.email.message)}
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
