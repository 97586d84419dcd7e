import { useEffect, useRef, type ReactNode } from 'react';
import type { Session } from '@strata/api';
import { Link, navigate, useLocation } from '../../lib/router';
import { useSignOutMutation } from '../../data/session/sign-out-mutation';
import { Icon, type IconName } from '../ui/Icon';
import { Toaster } from '../ui/Toaster';
import { useLiveUpdates } from '../../data/live/useLiveUpdates';

const NAV: { href: string; title: string; icon: IconName }[] = [
  { href: '/clusters', title: 'Clusters', icon: 'clusters' },
  { href: '/backups', title: 'Backups', icon: 'copy' },
  { href: '/nodes', title: 'Nodes', icon: 'nodes' },
  { href: '/alerts', title: 'Alerts', icon: 'alert' },
  { href: '/settings/access', title: 'Access', icon: 'user' },
];

export function AppShell({ session, children }: { session: Session; children: ReactNode }) {
  const { pathname } = useLocation();
  const signOut = useSignOutMutation();
  // One live event stream for every view of every cluster (issue 12).
  useLiveUpdates(true);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);

  // Move focus to the new page on client-side navigation (keyboard and screen-reader users).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  const initial = session.user.email.slice(0, 1).toUpperCase();

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="sidebar">
        <Link to="/clusters" className="brand" aria-label="Strata home">
          <Logo />
          <span className="brand-name">Strata</span>
        </Link>
        <nav aria-label="Main" className="sidenav">
          {NAV.map((item) => {
            const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
            return (
              <Link key={item.href} to={item.href} className="sidenav-link" aria-current={active ? 'page' : undefined}>
                <Icon name={item.icon} size={18} />
                <span>{item.title}</span>
              </Link>
            );
          })}
        </nav>
        <div className="sidebar-foot">Managed Redis Cluster</div>
      </div>
      <div className="app-body">
        <header className="topbar">
          <Link to="/settings/access" className="org" data-testid="current-org" title="Your organization: its users, API tokens and audit log">
            <Icon name="building" size={16} />
            <span className="visually-hidden">Organization: </span>
            <span className="org-name">{session.organization.name}</span>
          </Link>
          <div className="topbar-right">
            <div className="user" data-testid="current-user">
              <span className="avatar" aria-hidden="true">
                {initial}
              </span>
              <span className="visually-hidden">Signed in as </span>
              <span className="user-email">{session.user.email}</span>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in', { replace: true }) })}
            >
              <Icon name="logout" />
              Sign out
            </button>
          </div>
        </header>
        <main id="main" ref={mainRef} tabIndex={-1} className="content">
          {children}
        </main>
      </div>
      <Toaster />
    </div>
  );
}

export function Logo({ size = 26 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#e8473f" />
      <path d="M8 11.5l8-4 8 4-8 4z" fill="#fff" />
      <path d="M8 16l8 4 8-4" stroke="#fff" strokeWidth="2" fill="none" strokeLinejoin="round" opacity=".85" />
      <path d="M8 20.5l8 4 8-4" stroke="#fff" strokeWidth="2" fill="none" strokeLinejoin="round" opacity=".6" />
    </svg>
  );
}
