import { lazy, Suspense, useEffect } from 'react';
import type { Session } from '@strata/api';
import { useSessionQuery } from './data/session/session-query';
import { matchPath, navigate, useLocation } from './lib/router';
import { AppShell, Logo } from './components/layout/AppShell';
import { ErrorState, LoadingState } from './components/ui/States';

// Each page is its own chunk; the shell (React, react-query, router, layout) loads first.
const SignInPage = lazy(() => import('./interfaces/SignIn/SignInPage'));
const ClustersPage = lazy(() => import('./interfaces/Clusters/ClustersPage'));
const CreateClusterPage = lazy(() => import('./interfaces/ClusterCreate/CreateClusterPage'));
const ClusterPage = lazy(() => import('./interfaces/Cluster/ClusterPage'));
const BackupsPage = lazy(() => import('./interfaces/Backups/BackupsPage'));
const NodesPage = lazy(() => import('./interfaces/Nodes/NodesPage'));
const AlertsPage = lazy(() => import('./interfaces/Alerts/AlertsPage'));
const SettingsPage = lazy(() => import('./interfaces/Settings/SettingsPage'));
const NotFoundPage = lazy(() => import('./interfaces/NotFoundPage'));

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
