import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router';

// The page's title (STAFF_APP_NAME) is written in index.html: the brand module, with the customer
// brands' links, stays out of the staff first load (docs/decisions/284).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
