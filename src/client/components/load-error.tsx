import Button from 'react-bootstrap/Button';

interface Props {
  message: string;
  /** Absent when trying again cannot help (no permission). */
  onRetry?: (() => void) | undefined;
  className?: string;
}

/** A failed request, said where its data would have been, with a Retry button. */
export function LoadError({ message, onRetry, className }: Props) {
  return (
    <div role="alert" className={className}>
      <div className="text-danger mb-2">{message}</div>
      {onRetry ? (
        <Button size="sm" variant="outline-primary" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}
