import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { type TrackOrderBody, type TrackOrderInput, trackOrderBody } from '../../shared/contracts/customer';
import { orderIdFromParam, saveToken, trackOrder } from './customer-api';
import { CustomerLayout, useBrand } from './layout';
import { notifyError, notifySuccess } from './notify';

export const TRACK_TITLE = 'Download your Aruba Embarkation Disembarkation Card';

function TrackForm() {
  const params = useParams();
  const navigate = useNavigate();
  const { brand } = useBrand();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TrackOrderInput, unknown, TrackOrderBody>({
    resolver: zodResolver(trackOrderBody),
    defaultValues: { orderId: orderIdFromParam(params.orderId), email: '' },
  });

  useEffect(() => {
    document.title = TRACK_TITLE;
  }, []);

  const onSubmit = async (values: TrackOrderBody) => {
    const res = await trackOrder(values.orderId, values.email);
    if (res.status === 1 && res.data) {
      saveToken(values.orderId, res.data.token, res.data.expiresIn);
      reset({ orderId: '', email: '' });
      notifySuccess(res.message);
      navigate(`/get-new-order-details/${values.orderId}`);
    } else {
      notifyError(res.message);
    }
  };

  return (
    <section className="c-card c-track" aria-labelledby="track-title">
      <h1 id="track-title">{TRACK_TITLE}</h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate>
        <div className="c-field">
          <label htmlFor="track-order-id">Order ID</label>
          <input
            id="track-order-id"
            inputMode="numeric"
            autoComplete="off"
            placeholder="Order ID"
            aria-invalid={errors.orderId ? true : undefined}
            aria-describedby={errors.orderId ? 'track-order-id-error' : undefined}
            {...register('orderId')}
          />
          {errors.orderId?.message ? (
            <p id="track-order-id-error" className="c-error" role="alert">
              {errors.orderId.message}
            </p>
          ) : null}
        </div>
        <div className="c-field">
          <label htmlFor="track-email">Email ID</label>
          <input
            id="track-email"
            type="email"
            autoComplete="email"
            placeholder="Email ID"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'track-email-error' : undefined}
            {...register('email')}
          />
          {errors.email?.message ? (
            <p id="track-email-error" className="c-error" role="alert">
              {errors.email.message}
            </p>
          ) : null}
        </div>
        <button type="submit" className="c-button" disabled={isSubmitting}>
          {isSubmitting ? 'TRACKING…' : 'TRACK ORDER'}
        </button>
      </form>
      <p className="c-help">
        <a href={brand.links.contact}>Need Help? Contact Support</a>
      </p>
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
