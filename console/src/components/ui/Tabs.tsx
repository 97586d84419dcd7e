import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from '../../lib/router';

/** ARIA tabs with arrow-key navigation (for in-page panels such as code snippets). */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: readonly { key: K; title: string }[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const i = tabs.findIndex((t) => t.key === selected);
    let next = i;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    else return;
    e.preventDefault();
    onSelect(tabs[next]!.key);
    refs.current[next]?.focus();
  }
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tablist" onKeyDown={onKeyDown}>
        {tabs.map((t, i) => (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.key}`}
            aria-selected={t.key === selected}
            aria-controls={`${base}-panel`}
            tabIndex={t.key === selected ? 0 : -1}
            className="tab"
            onClick={() => onSelect(t.key)}
          >
            {t.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="tabpanel">
        {children}
      </div>
    </div>
  );
}

/** Route-backed tabs (each tab is its own URL): a nav of links with aria-current. */
export function NavTabs({ label, tabs, current }: { label: string; tabs: readonly { href: string; title: string; key: string }[]; current: string }) {
  return (
    <nav aria-label={label} className="navtabs">
      {tabs.map((t) => (
        <Link key={t.key} to={t.href} className="navtab" aria-current={t.key === current ? 'page' : undefined}>
          {t.title}
        </Link>
      ))}
    </nav>
  );
}
