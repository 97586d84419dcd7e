import type { ReactNode } from 'react';
import { Dialog } from './Dialog';
import { InlineAlert } from './States';

/**
 * Asks before an action that disrupts service, saying what it does to the
 * cluster (`impact`); the action runs only on the confirm button. While it
 * runs the button says so; a refusal shows in the dialog.
 */
export function ConfirmDialog({ open, title, impact, confirmLabel, pendingLabel, tone = 'danger', pending, error, onConfirm, onClose, testId }: {
  open: boolean;
  title: string;
  impact: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  tone?: 'danger' | 'primary';
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}) {
  const id = `confirm-${(testId ?? title).replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  return (
    <Dialog open={open} onClose={onClose} title={title} labelledBy={id}>
      <div className="stack" data-testid={testId ?? 'confirm-dialog'}>
        <div className="confirm-impact">{impact}</div>
        {error && <InlineAlert tone="danger" title="Nothing was changed">{error}</InlineAlert>}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={tone === 'danger' ? 'btn btn-danger' : 'btn btn-primary'} disabled={pending} onClick={onConfirm} autoFocus>
            {pending ? (pendingLabel ?? 'Working…') : confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
