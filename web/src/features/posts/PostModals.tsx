// Modals and notices of the posts page: add posts by address, bulk delete confirm,
// and the timed notice with Undo.
import { useEffect, useState } from 'react';
import type { AddPostResult } from '../../api/queries/posts';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/errors';

export const ADD_ALL_OK = 'All posts have been added successfully';
export const ADD_SOME_FAILED = 'Some posts were not added successfully';

export function AddPostsModal({
  open,
  onOpenChange,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSubmit: (urls: string[]) => Promise<AddPostResult[]>;
}) {
  const [rows, setRows] = useState<string[]>(['']);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setRows(['']);
      setErrors({});
      setNotice(null);
    }
  }, [open]);
  async function submit() {
    const filled = rows.map((r, i) => ({ url: r.trim(), i })).filter((r) => r.url);
    if (!filled.length) return;
    setBusy(true);
    setErrors({});
    setNotice(null);
    try {
      const results = await onSubmit(filled.map((r) => r.url));
      const errs: Record<number, string> = {};
      results.forEach((r, n) => {
        if (!r.added) errs[filled[n].i] = r.error ?? 'An unknown error occurred.';
      });
      setErrors(errs);
      if (Object.keys(errs).length) {
        setNotice(ADD_SOME_FAILED);
        // Keep only the rows that failed, so they can be corrected.
      } else {
        setNotice(ADD_ALL_OK);
        setTimeout(() => onOpenChange(false), 1200);
      }
    } catch (e) {
      setNotice(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Add Posts" name="addPostsModal" description="Paste the address of each post to add to this tracker.">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {rows.map((r, i) => (
          <div key={i}>
            <input
              type="url"
              value={r}
              aria-label={`Post URL ${i + 1}`}
              placeholder="https://"
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? e.target.value : x)))}
              className={`h-9 w-full rounded-md border px-3 text-sm ${errors[i] ? 'border-red-500' : 'border-slate-300'}`}
            />
            {errors[i] ? (
              <p className="mt-1 text-xs text-red-700" data-testid="add-post-error">
                {errors[i]}
              </p>
            ) : null}
          </div>
        ))}
        <button type="button" className="text-sm text-brand-700 underline" onClick={() => setRows([...rows, ''])}>
          + Add another URL
        </button>
        {notice ? (
          <p role="status" className={`text-sm ${notice === ADD_ALL_OK ? 'text-emerald-700' : 'text-red-700'}`}>
            {notice}
          </p>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" loading={busy} disabled={!rows.some((r) => r.trim())}>
            Add Posts
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function BulkDeleteModal({
  count,
  open,
  onOpenChange,
  onConfirm,
}: {
  count: number;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onConfirm: () => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Delete posts" name="postBulkDelete">
      <p className="text-sm text-slate-700">
        Delete {count} selected post(s) from this tracker? They leave every count of the tracker.
      </p>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            onConfirm();
            onOpenChange(false);
          }}
        >
          Delete
        </Button>
      </div>
    </Modal>
  );
}

// The timed notice moved to components/ (the exports use it too).
export { Notice, type NoticeState } from '../../components/Notice';
