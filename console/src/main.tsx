import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './data/query-client';
import { App } from './App';
import { reloadForPart } from './lib/lazy-part';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/cluster.css';
import './styles/responsive.css';

// A page part loaded on demand whose file could not be fetched (a newer console replaced it, or the browser dropped the
// request when the machine's network changed): load the page again, up to 3 times a minute, rather than show nothing.
window.addEventListener('vite:preloadError', (event) => {
  let earlier: number[] = [];
  try {
    earlier = (JSON.parse(sessionStorage.getItem('strata-preload-reloads') ?? '[]') as unknown[]).filter((t): t is number => typeof t === 'number');
  } catch {
    // unreadable: as if none
  }
  const { reload, keep } = reloadForPart(Date.now(), earlier);
  sessionStorage.setItem('strata-preload-reloads', JSON.stringify(keep));
  if (!reload) return;
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
