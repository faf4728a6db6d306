import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { orderIdFromParam } from './customer-api';
import { useI18n } from './i18n';
import { rateOrder } from './self-service-api';
import { RatingForm } from './self-service-panel';

/**
 * /rate-order/:orderId?score=N&sig=…: a link of the "How did we do?" mail. The score is recorded at
 * once (the signed link stands in for the customer token), then the customer may add a comment.
 */
export function Component() {
  const { t } = useI18n();
  const params = useParams();
  const [search] = useSearchParams();
  const orderId = orderIdFromParam(params.orderId);
  const signature = search.get('sig') ?? '';
  const score = Number(search.get('score'));
  const [state, setState] = useState<'saving' | 'saved' | 'failed'>('saving');
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    void rateOrder(orderId, { score, signature }).then((res) =>
      setState(res.code === 200 ? 'saved' : 'failed'),
    );
  }, [orderId, score, signature]);
  if (state === 'saving') return <p className="c-card">{t.t('common.loading')}</p>;
  if (state === 'failed') return <p className="c-card c-error">{t.t('self.rating.linkInvalid')}</p>;
  return <RatingForm orderId={orderId} signature={signature} initialScore={score} />;
}
