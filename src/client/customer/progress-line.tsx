import type { CustomerStage } from '../../shared/customer-stage';
import { PROGRESS_STAGES } from '../../shared/customer-stage';
import { useI18n } from './i18n';

/** The steps shown for a stage: the usual path, with a detour where the order left it. */
export function progressSteps(stage: CustomerStage): CustomerStage[] {
  if (stage === 'action_needed')
    return ['received', 'in_review', 'action_needed', 'with_government', 'approved'];
  if (stage === 'refunded' || stage === 'cancelled') return ['received', stage];
  return [...PROGRESS_STAGES];
}

/**
 * Where the order is (docs/decisions/211): a numbered list of steps with the current one marked
 * (aria-current), the stage message and, when the customer must act, the staff's request as plain text.
 */
export function ProgressLine({
  stage,
  message,
  request,
  answered = false,
}: {
  stage: CustomerStage;
  message: string | null;
  request?: string | null;
  /** The customer answered the request: the step reads "Answer received" (decision 392). */
  answered?: boolean;
}) {
  const { t } = useI18n();
  // An answer received (also once it moved the order back to Received) stands where Action needed was.
  const shown: CustomerStage =
    answered && (stage === 'received' || stage === 'action_needed') ? 'action_needed' : stage;
  const steps = progressSteps(shown);
  const current = steps.indexOf(shown);
  const detour = (shown === 'action_needed' && !answered) || stage === 'refunded' || stage === 'cancelled';
  return (
    <section className="c-card c-stage" aria-labelledby="stage-title">
      <h2 id="stage-title">{t.t('stage.heading')}</h2>
      <ol className="c-progress">
        {steps.map((step, i) => (
          <li
            key={step}
            className={i < current ? 'c-step-done' : i === current && detour ? 'c-step-detour' : undefined}
            aria-current={i === current ? 'step' : undefined}
          >
            {step === 'action_needed' && answered ? t.t('stage.answered') : t.t(`stage.${step}`)}
          </li>
        ))}
      </ol>
      {/* The server words the stage, "we received your answer" included (the page has no copy of it). */}
      {message ? <p className="c-stage-message">{message}</p> : null}
      {request ? (
        <div className="c-stage-request">
          <h3>{t.t('stage.request')}</h3>
          <p className="c-staff-words">{t.t('stage.requestNote')}</p>
          <blockquote>{request}</blockquote>
        </div>
      ) : null}
    </section>
  );
}
