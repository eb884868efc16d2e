// A notice (error or confirmation) shown in the panel where its action happened, so it is in view; dismissable.
import { useEffect } from 'react';
import { labStore, useLab } from '../../store';
import type { NoticeArea } from '../../store/types';

/** A confirmation goes away by itself after this long; an error stays until dismissed or replaced. */
const INFO_MS = 10_000;

export function Notice({ area }: { area: NoticeArea }) {
  const b = useLab((s) => s.banner);
  const mine = b !== null && (b.area ?? 'page') === area;
  useEffect(() => {
    if (!mine || b.kind !== 'info') return;
    const t = setTimeout(() => labStore.getState().banner === b && labStore.getState().setBanner(null), INFO_MS);
    return () => clearTimeout(t);
  }, [b, mine]);
  if (!mine) return null;
  return (
    <div
      className={`banner ${b.kind}`}
      data-testid={b.kind === 'error' ? 'error-banner' : 'info-banner'}
      data-area={area}
      role={b.kind === 'error' ? 'alert' : 'status'}
    >
      {b.text}{' '}
      <button className="link" onClick={() => labStore.getState().setBanner(null)}>
        dismiss
      </button>
    </div>
  );
}

/** Reports an action's outcome in `area`: errors stay until dismissed or a later action succeeds. */
export function notify(area: NoticeArea) {
  return {
    ok: (text: string) => labStore.getState().setBanner({ kind: 'info', text, area }),
    fail: (what: string) => (e: unknown) =>
      labStore.getState().setBanner({ kind: 'error', text: `${what}: ${(e as Error).message}`, area }),
  };
}
