import type { ReactNode } from 'react';
import type { ApiError } from '../../data/fetcher';
import { Icon, type IconName } from './Icon';

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner" role={label ? 'status' : undefined} aria-label={label}>
      <span aria-hidden="true" className="spinner-ring" />
    </span>
  );
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span aria-hidden="true" className="spinner-ring" />
      <span>{label}</span>
    </div>
  );
}

/** Placeholder rows while a table loads. */
export function SkeletonRows({ rows = 3, cols }: { rows?: number; cols: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} className="skeleton-row" aria-hidden="true">
          {Array.from({ length: cols }, (_, c) => (
            <td key={c}>
              <span className="skeleton" style={{ width: `${40 + ((r * 7 + c * 13) % 45)}%` }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
  level = 2,
}: {
  icon: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  /** 1 when the empty state is the whole page (e.g. not found). */
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="state state-empty">
      <div className="state-icon" aria-hidden="true">
        <Icon name={icon} size={28} />
      </div>
      <Heading className="state-title">{title}</Heading>
      {children && <p className="state-text">{children}</p>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

export function ErrorState({
  error,
  title = 'Something went wrong',
  onRetry,
  level = 2,
}: {
  error: ApiError | null;
  title?: string;
  onRetry?: () => void;
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon" aria-hidden="true">
        <Icon name="alert" size={28} />
      </div>
      <Heading className="state-title">{title}</Heading>
      <p className="state-text">{error?.summary ?? 'An unexpected error occurred.'}</p>
      {onRetry && (
        <div className="state-action">
          <button type="button" className="btn btn-secondary" onClick={onRetry}>
            <Icon name="refresh" /> Try again
          </button>
        </div>
      )}
    </div>
  );
}

export function InlineAlert({ tone, title, children }: { tone: 'danger' | 'warning' | 'info'; title: string; children?: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      <Icon name={tone === 'info' ? 'info' : 'alert'} size={18} />
      <div>
        <strong className="alert-title">{title}</strong>
        {children && <div className="alert-body">{children}</div>}
      </div>
    </div>
  );
}
