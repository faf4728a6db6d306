import { useEffect, useState } from 'react';

type Estimate = (password: string, userInputs: string[]) => { score: number };

let estimator: Promise<Estimate> | undefined;
/** zxcvbn-ts and its common-password dictionaries (~hundreds of KB) load on first use, never in the first load. */
function loadEstimator(): Promise<Estimate> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => {
      const factory = new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary },
        graphs: common.adjacencyGraphs,
      });
      return (password, userInputs) => {
        return { score: factory.check(password, userInputs).score };
      };
    },
  );
  return estimator;
}

const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
const COLOURS = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-info', 'bg-success'] as const;

/** Strength of a new password while it is typed (the server still decides: length, common list, e-mail). */
export function PasswordStrength({ password, userInputs = [] }: { password: string; userInputs?: string[] }) {
  const [result, setResult] = useState<{ score: number } | null>(null);
  const inputs = userInputs.join('\u0000');
  useEffect(() => {
    if (!password) {
      setResult(null);
      return;
    }
    let live = true;
    loadEstimator()
      .then((estimate) => {
        if (live) setResult(estimate(password, inputs ? inputs.split('\u0000') : []));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [password, inputs]);
  if (!password || !result) return null;
  const score = Math.max(0, Math.min(4, result.score));
  return (
    <div className="mt-1" aria-live="polite">
      <div className="progress" style={{ height: 6 }} aria-hidden>
        <div className={`progress-bar ${COLOURS[score]}`} style={{ width: `${(score + 1) * 20}%` }} />
      </div>
      <small className="text-muted" data-testid="password-strength">
        Strength: {LABELS[score]}
        {score < 3 ? ' — a few more unusual words make it stronger.' : ''}
      </small>
    </div>
  );
}
