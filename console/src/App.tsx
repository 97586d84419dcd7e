import { Suspense, useEffect } from 'react';
import type { Session } from '@strata/api';
import { useSessionQuery } from './data/session/session-query';
import { matchPath, navigate, useLocation } from './lib/router';
import { lazyPart } from './lib/lazy-part';
import { AppShell, Logo } from './components/layout/AppShell';
import { ErrorState, LoadingState } from './components/ui/States';

// Each page is its own chunk; the shell (React, react-query, router, layout) loads first.
const SignInPage = lazyPart(() => import('./interfaces/SignIn/SignInPage'), (m) => m.default);
const ClustersPage = lazyPart(() => import('./interfaces/Clusters/ClustersPage'), (m) => m.default);
const CreateClusterPage = lazyPart(() => import('./interfaces/ClusterCreate/CreateClusterPage'), (m) => m.default);
const ClusterPage = lazyPart(() => import('./interfaces/Cluster/ClusterPage'), (m) => m.default);
const BackupsPage = lazyPart(() => import('./interfaces/Backups/BackupsPage'), (m) => m.default);
const NodesPage = lazyPart(() => import('./interfaces/Nodes/NodesPage'), (m) => m.default);
const AlertsPage = lazyPart(() => import('./interfaces/Alerts/AlertsPage'), (m) => m.default);
const SettingsPage = lazyPart(() => import('./interfaces/Settings/SettingsPage'), (m) => m.default);
const NotFoundPage = lazyPart(() => import('./interfaces/NotFoundPage'), (m) => m.default);

function safeNext(next: string | null): string {
  // Only same-app paths: never redirect off-site.
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/clusters';
}

export function App() {
  const session = useSessionQuery();
  const { pathname, search } = useLocation();
  const query = search.toString();
  const signedIn = !!session.data;

  useEffect(() => {
    if (session.isPending || session.isError) return;
    if (!signedIn && pathname !== '/sign-in') {
      const here = pathname + (query ? `?${query}` : '');
      navigate(`/sign-in${pathname === '/' ? '' : `?next=${encodeURIComponent(here)}`}`, { replace: true });
    } else if (signedIn && (pathname === '/sign-in' || pathname === '/')) {
      navigate(safeNext(new URLSearchParams(query).get('next')), { replace: true });
    }
  }, [signedIn, session.isPending, session.isError, pathname, query]);

  if (session.isPending) {
    return (
      <div className="splash">
        <Logo size={40} />
        <LoadingState label="Loading Strata…" />
      </div>
    );
  }
  if (session.isError) {
    return (
      <div className="splash">
        <ErrorState level={1} error={session.error} title="Cannot reach Strata" onRetry={() => void session.refetch()} />
      </div>
    );
  }
  if (!session.data) {
    return (
      <Suspense fallback={<div className="splash"><LoadingState /></div>}>
        <SignInPage />
      </Suspense>
    );
  }
  return (
    <AppShell session={session.data}>
      <Suspense fallback={<LoadingState />}>
        <Routes pathname={pathname} session={session.data} />
      </Suspense>
    </AppShell>
  );
}

function Routes({ pathname, session }: { pathname: string; session: Session }) {
  if (pathname === '/' || pathname === '/sign-in') return <LoadingState />;
  if (matchPath('/clusters', pathname)) return <ClustersPage />;
  if (matchPath('/clusters/new', pathname)) return <CreateClusterPage />;
  const cluster = matchPath('/clusters/:id/:tab?', pathname);
  if (cluster) return <ClusterPage key={cluster.id} id={cluster.id!} tab={cluster.tab ?? 'overview'} />;
  if (matchPath('/backups', pathname)) return <BackupsPage />;
  if (matchPath('/nodes', pathname)) return <NodesPage />;
  if (matchPath('/alerts', pathname)) return <AlertsPage />;
  if (matchPath('/settings/access', pathname)) return <SettingsPage session={session} />;
  return <NotFoundPage />;
}
