import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './data/query-client';
import { App } from './App';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/cluster.css';
import './styles/responsive.css';

// A page part loaded on demand whose file could not be fetched (a newer console replaced it, or the browser dropped the
// request when the machine's network changed): load the page again, at most once in 10 s, rather than show nothing.
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('strata-preload-reload') ?? 0);
  if (Date.now() - last < 10_000) return;
  sessionStorage.setItem('strata-preload-reload', String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
