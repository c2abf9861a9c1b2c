// Tracker Settings → Privacy: Facebook anonymisation. Facebook posts without insights (posts of
// pages the tracker does not manage) then show no author name or picture, and the influencer
// lists leave Facebook authors out.
import { useId, useState } from 'react';
import { useAnonymizeFacebook } from '../../api/queries/shell';
import { Alert } from '../../components/Alert';
import { Spinner } from '../../components/Spinner';

export function PrivacySection({ hash, anonymizeFacebook }: { hash: string; anonymizeFacebook: boolean }) {
  const m = useAnonymizeFacebook(hash);
  const id = useId();
  // The value being saved shows at once, in the same render as the click.
  const [saving, setSaving] = useState<boolean | null>(null);
  return (
    <section aria-labelledby="privacy-title" className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="privacy-title" className="text-base font-semibold text-slate-900">Privacy</h2>
      <div className="mt-4 flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          checked={saving ?? anonymizeFacebook}
          disabled={m.isPending}
          aria-describedby={`${id}-help`}
          onChange={(e) => {
            const value = e.target.checked;
            setSaving(value);
            m.mutate(value, { onSettled: () => setSaving(null) });
          }}
        />
        <div>
          <label htmlFor={id} className="flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
            Anonymise Facebook posts {m.isPending && <Spinner className="h-3.5 w-3.5" />}
          </label>
          <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">
            Hide the names and pictures of Facebook authors on posts without insights, in every page, export and
            share link, and leave Facebook authors out of the influencer lists.
          </p>
        </div>
      </div>
      {m.isError && <Alert className="mt-4">The setting could not be saved. Please try again.</Alert>}
    </section>
  );
}
