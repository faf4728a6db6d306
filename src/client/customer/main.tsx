import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { preloadPageLanguage, useI18n } from './i18n';
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
    () => ({ default: ChunkFailed }),
  ),
);

const RatePage = lazy(() =>
  import('./rate-order-page').then(
    (m) => ({ default: m.Component }),
    () => ({ default: ChunkFailed }),
  ),
);

function ChunkFailed() {
  const { t } = useI18n();
  return <p className="c-card c-error">{t.t('chunk.failed')}</p>;
}

function Loading() {
  const { t } = useI18n();
  return <p className="c-card">{t.t('common.loading')}</p>;
}

function NotFound() {
  const { t } = useI18n();
  return (
    <section className="c-card">
      <h1>{t.t('notFound.title')}</h1>
      <p>
        <a href="/track-order">{t.t('notFound.track')}</a>
      </p>
    </section>
  );
}

// The chosen language's messages (a chunk of their own) load before the first paint: no English flash.
await preloadPageLanguage();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <CustomerLayout>
        <Suspense fallback={<Loading />}>
          <Routes>
            <Route path="/track-order/:orderId?" element={<TrackPage />} />
            <Route path="/get-new-order-details/:orderId" element={<DetailsPage />} />
            <Route path="/rate-order/:orderId" element={<RatePage />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </CustomerLayout>
    </BrowserRouter>
  </StrictMode>,
);
