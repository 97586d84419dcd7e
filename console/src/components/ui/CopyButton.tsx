import { useEffect, useState } from 'react';
import { Icon } from './Icon';

/** Clipboard API with a fallback for non-secure contexts. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // fall through to the legacy path (e.g. permission denied)
    }
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand('copy');
  ta.remove();
  if (!ok) throw new Error('copy failed');
}

export function CopyButton({ text, label, compact }: { text: string; label: string; compact?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);

  return (
    <>
      <button
        type="button"
        className={compact ? 'btn btn-ghost btn-sm' : 'btn btn-secondary btn-sm'}
        aria-label={label}
        title={label}
        onClick={() => copyText(text).then(() => setState('copied'), () => setState('failed'))}
      >
        <Icon name={state === 'copied' ? 'check' : 'copy'} />
        {!compact && <span>{state === 'copied' ? 'Copied' : 'Copy'}</span>}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied to clipboard' : state === 'failed' ? 'Could not copy' : ''}
      </span>
    </>
  );
}
