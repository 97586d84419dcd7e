import type { ReactNode } from 'react';
import { Link } from '../../lib/router';

export function PageHeader({
  title,
  description,
  actions,
  crumbs,
  meta,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  crumbs?: { href: string; title: string }[];
  meta?: ReactNode;
}) {
  return (
    <div className="page-header">
      {crumbs && crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {crumbs.map((c) => (
              <li key={c.href}>
                <Link to={c.href}>{c.title}</Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div className="page-header-row">
        <div className="page-header-main">
          <div className="page-title-row">
            <h1 className="page-title">{title}</h1>
            {meta}
          </div>
          {description && <p className="page-description">{description}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
    </div>
  );
}
