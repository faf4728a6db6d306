import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { CustomerLayout } from './layout';
import { Component as TrackPage } from './track-page';

/**
 * The customer entry (customer/index.html): its own build with Preact standing in for React, so a phone
 * loads the track page in well under 60 KB of script and never any staff code (docs/decisions/050).
 */
const DetailsPage = lazy(() =>
  import('./order-details-page').then(
    (m) => ({ default: m.Component }),
    // A chunk that fails to load is reported as such (docs/product.md, "Texts, toasts and errors").
    () => ({ default: () => <p className="c-card c-error">Loading chunk order-details failed</p> }),
  ),
);

function NotFound() {
  return (
    <section className="c-card">
      <h1>Page not found</h1>
      <p>
        <a href="/track-order">Track your order</a>
      </p>
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <CustomerLayout>
        <Suspense fallback={<p className="c-card">Loading…</p>}>
          <Routes>
            <Route path="/track-order/:orderId?" element={<TrackPage />} />
            <Route path="/get-new-order-details/:orderId" element={<DetailsPage />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </CustomerLayout>
    </BrowserRouter>
  </StrictMode>,
);
