import { isRouteErrorResponse, useRouteError } from 'react-router';
import { MSG } from '../../shared/messages';

/** Router fallback (docs/product.md): status and text or message, and the stack if any. */
export function ErrorPage() {
  const error = useRouteError();
  let title = '';
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    title = `${error.status} ${error.statusText}`;
  } else if (error instanceof Error) {
    title = error.message;
    stack = error.stack;
  } else {
    title = String(error);
  }
  return (
    <main style={{ padding: '2rem', fontFamily: 'system-ui, sans-serif' }}>
      <h2>{MSG.unexpectedError}</h2>
      <h3 style={{ fontStyle: 'italic' }}>{title}</h3>
      {stack ? <pre style={{ padding: '0.5rem', background: 'rgba(200,200,200,0.5)' }}>{stack}</pre> : null}
    </main>
  );
}
