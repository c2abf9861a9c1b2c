// The advanced filters behind Settings: bio contains, location, and a lesser / greater bound on
// followers, engagement, posts and impressions. Each field keeps its draft while typed and
// writes the URL on blur or Enter; a URL change (Reset, back) shows in the fields.
import { useEffect, useRef, useState } from 'react';
import { INFLUENCER_COUNT_FILTERS, setInfluencerFilters, type CountFilter, type CountOp, type InfluencerCountKey } from '../../state/query-state';
import { useShell } from '../shell/context';

const COUNT_LABELS: Record<InfluencerCountKey, string> = {
  followers: 'Followers',
  engagement: 'Engagement',
  posts: 'Posts',
  impressions: 'Impressions',
};

const INPUT = 'h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';

export function AdvancedFilters() {
  const { query, update } = useShell();
  const f = query.influencer;
  return (
    <section id="influencer-settings" aria-label="Advanced filters" className="grid gap-4 border-b border-slate-200 bg-slate-50 px-6 py-4 sm:grid-cols-2 xl:grid-cols-3">
      <TextFilter label="Bio contains" value={f.bio} onCommit={(bio) => update(setInfluencerFilters({ bio }))} />
      <TextFilter label="Location" value={f.location} onCommit={(location) => update(setInfluencerFilters({ location }))} />
      {INFLUENCER_COUNT_FILTERS.map((k) => (
        <CountFilterField key={k} label={COUNT_LABELS[k]} value={f[k]} onCommit={(v) => update(setInfluencerFilters({ [k]: v }))} />
      ))}
    </section>
  );
}

function TextFilter({ label, value, onCommit }: { label: string; value: string; onCommit: (v: string) => void }) {
  const [text, setText] = useState(value);
  // Enter then blur must not write the same value twice (two history entries).
  const sent = useRef(value);
  useEffect(() => {
    setText(value);
    sent.current = value;
  }, [value]);
  const commit = () => {
    const v = text.trim();
    if (v === sent.current) return;
    sent.current = v;
    onCommit(v);
  };
  return (
    <label className="text-sm text-slate-700">
      <span className="mb-1 block font-medium">{label}</span>
      <input
        className={INPUT}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </label>
  );
}

function CountFilterField({ label, value, onCommit }: { label: string; value: CountFilter | null; onCommit: (v: CountFilter | null) => void }) {
  const [op, setOp] = useState<CountOp>(value?.op ?? 'greater');
  const [text, setText] = useState(value ? String(value.count) : '');
  const key = (v: CountFilter | null) => (v ? `${v.op}:${v.count}` : '');
  const sent = useRef(key(value));
  useEffect(() => {
    setOp(value?.op ?? 'greater');
    setText(value ? String(value.count) : '');
    sent.current = value ? `${value.op}:${value.count}` : '';
  }, [value?.op, value?.count]);
  const commit = (nextOp: CountOp, raw: string) => {
    const t = raw.trim();
    const next = t === '' || !Number.isFinite(Number(t)) ? null : { count: Math.max(0, Math.floor(Number(t))), op: nextOp };
    if (key(next) === sent.current) return;
    sent.current = key(next);
    onCommit(next);
  };
  return (
    <fieldset className="text-sm text-slate-700">
      <legend className="mb-1 font-medium">{label}</legend>
      <div className="flex gap-2">
        <select
          aria-label={`${label} operator`}
          className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
          value={op}
          onChange={(e) => {
            const next = e.target.value as CountOp;
            setOp(next);
            // Only a bound with a count is a filter; the operator alone waits for one.
            if (text.trim() !== '') commit(next, text);
          }}
        >
          <option value="greater">Greater than</option>
          <option value="lesser">Less than</option>
        </select>
        <input
          aria-label={`${label} count`}
          type="number"
          min={0}
          inputMode="numeric"
          className={INPUT}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit(op, text)}
          onKeyDown={(e) => e.key === 'Enter' && commit(op, text)}
        />
      </div>
    </fieldset>
  );
}
