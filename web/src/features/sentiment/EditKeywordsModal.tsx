// Edit Sentiment Keywords: three lists of words that force a post's sentiment in this tracker.
// Save applies them to new posts; Save and Reanalyze also scores the stored posts again.
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { useSaveSentimentKeywords } from '../../api/queries/tracker-mutations';
import type { SentimentKeywords, Tracker } from '../../api/types';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { IconPlus, IconX } from '../../components/icons';
import { Modal } from '../../components/Modal';
import {
  addEntry,
  canRemove,
  cleaned,
  commitEntry,
  LIST_LABELS,
  LIST_NAMES,
  removeEntry,
  sameLists,
  setEntry,
  toDraft,
  type Draft,
} from './keyword-lists';

const EMPTY: SentimentKeywords = { positive: [], neutral: [], negative: [] };

export function EditKeywordsModal({
  hash,
  saved,
  open,
  onOpenChange,
  onSaved,
}: {
  hash: string;
  saved: SentimentKeywords | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a save: the tracker as saved, and whether its stored posts are being re-analyzed. */
  onSaved?: (tracker: Tracker, reanalyze: boolean) => void;
}) {
  const baseline = saved ?? EMPTY;
  const [draft, setDraft] = useState<Draft>(() => toDraft(baseline));
  const save = useSaveSentimentKeywords(hash);
  // Each opening starts from the saved lists.
  useEffect(() => {
    if (open) {
      setDraft(toDraft(saved ?? EMPTY));
      save.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  const lists = cleaned(draft);
  const unchanged = sameLists(lists, baseline);

  const submit = (reanalyze: boolean) =>
    save.mutate(
      { ...lists, reanalyze },
      {
        onSuccess: (t) => {
          onSaved?.(t, reanalyze);
          onOpenChange(false);
        },
      },
    );

  const error =
    save.error instanceof ApiError ? save.error.message : save.error ? 'An unknown error occurred.' : null;

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      name="editSentimentKeywords"
      title="Edit Sentiment Keywords"
      description="Posts containing a keyword get that list's sentiment in this tracker. A keyword belongs to one list."
    >
      <div className="grid gap-4 sm:grid-cols-3">
        {LIST_NAMES.map((name) => (
          <fieldset key={name} className="min-w-0" data-list={name}>
            <legend className="mb-2 text-sm font-semibold text-slate-700">{LIST_LABELS[name]}</legend>
            <ul className="space-y-2">
              {draft[name].map((value, i) => (
                <li key={i} className="flex items-center gap-1">
                  <input
                    aria-label={`${LIST_LABELS[name]} keyword ${i + 1}`}
                    className="h-8 min-w-0 flex-1 rounded-md border border-slate-300 px-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
                    value={value}
                    maxLength={100}
                    onChange={(e) => setDraft((d) => setEntry(d, name, i, e.target.value))}
                    onBlur={() => setDraft((d) => commitEntry(d, name, i))}
                  />
                  {canRemove(draft, name, i) && (
                    <button
                      type="button"
                      aria-label={`Remove ${LIST_LABELS[name].toLowerCase()} keyword ${i + 1}`}
                      className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                      onClick={() => setDraft((d) => removeEntry(d, name, i))}
                    >
                      <IconX size={16} />
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <button
              type="button"
              aria-label={`Add ${LIST_LABELS[name].toLowerCase()} keyword`}
              className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
              onClick={() => setDraft((d) => addEntry(d, name))}
            >
              <IconPlus size={16} /> Add keyword
            </button>
          </fieldset>
        ))}
      </div>
      {error && <Alert className="mt-4">{error}</Alert>}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="secondary" disabled={unchanged} loading={save.isPending && !save.variables?.reanalyze} onClick={() => submit(false)}>
          Save
        </Button>
        <Button disabled={unchanged} loading={save.isPending && !!save.variables?.reanalyze} onClick={() => submit(true)}>
          Save and Reanalyze
        </Button>
      </div>
    </Modal>
  );
}
