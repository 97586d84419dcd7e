import { formatAgo, formatDateTime } from '../../lib/format';

/**
 * "12s ago" with the absolute time on hover and on keyboard focus (a tooltip
 * drawn by CSS from `data-absolute`, and the native title), so an incident's
 * times can be read exactly and compared.
 */
export function TimeAgo({ at, now, className }: { at: string; now: number; className?: string }) {
  const absolute = formatDateTime(at);
  return (
    <time className={`time-ago ${className ?? ''}`} dateTime={at} title={absolute} data-absolute={absolute} tabIndex={0} aria-label={`${formatAgo(at, now)}, ${absolute}`}>
      {formatAgo(at, now)}
    </time>
  );
}
