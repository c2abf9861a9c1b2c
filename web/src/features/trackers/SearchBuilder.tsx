import { Link } from 'react-router';
import type { SearchRow } from '../../api/types';
import { IconLock } from '../../components/icons';
import { LINK_SHARING_LOCK_TEXT as UPGRADE_TEXT } from '../shell/ShareModal';
import {
  addInput,
  addRow,
  canAddMore,
  canExclude,
  ignoreCount,
  inputWidth,
  removeInput,
  removeRow,
  rowLabel,
  searchCount,
  setRowType,
  setTerm,
  type BuilderLimits,
} from './search-builder';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why the add controls went: the plan's limit that was reached, or null below both. */
export function limitReachedText(searches: number, ignored: number, limits: BuilderLimits): string | null {
  const searchesFull = searches >= limits.maxSearches;
  // As canAddMore: a limit of 0 excluded terms is reached only once one is typed.
  const ignoredFull = ignored > 0 && ignored >= limits.maxIgnored;
  const s = plural(limits.maxSearches, 'search', 'searches');
  const i = plural(limits.maxIgnored, 'excluded term', 'excluded terms');
  if (searchesFull && ignoredFull) return `Your plan allows ${s} and ${i}.`;
  if (searchesFull) return `Your plan allows ${s}.`;
  if (ignoredFull) return `Your plan allows ${i}.`;
  return null;
}

export interface SearchBuilderProps {
  rows: SearchRow[];
  onChange: (rows: SearchRow[]) => void;
  limits: BuilderLimits;
  readOnly?: boolean;
  error?: string;
}

const iconButton =
  'inline-flex h-7 w-7 items-center justify-center rounded text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

/**
 * Rows of terms: terms within a row are ORed, include rows ANDed, exclude rows remove matches.
 * The first row is fixed 'That include'; later rows switch between 'And include' and 'Do not include'.
 */
export function SearchBuilder({ rows, onChange, limits, readOnly = false, error }: SearchBuilderProps) {
  const more = !readOnly && canAddMore(rows, limits);
  const excludeOk = canExclude(rows, limits);
  const count = searchCount(rows);
  const ignored = ignoreCount(rows);
  // The add controls are gone at a limit: say which, and where more comes from.
  const limitText = readOnly ? null : limitReachedText(count, ignored, limits);

  return (
    <fieldset aria-describedby={error ? 'search-error' : undefined}>
      <legend className="text-sm font-semibold text-slate-900">Search terms</legend>
      <p className="mt-0.5 text-xs text-slate-500">
        Posts match when they contain any term of a row (OR) and every include row (AND). Hashtags, keywords and @accounts all work.
      </p>
      <div className="mt-3 space-y-3">
        {rows.map((row, i) => {
          const label = rowLabel(i, row.type);
          const exclude = row.type === '-';
          return (
            <div
              key={i}
              data-testid={`search-row-${i + 1}`}
              className={`flex flex-wrap items-center gap-2 rounded-md border p-2 ${exclude ? 'border-red-200 bg-red-50/40' : 'border-slate-200 bg-slate-50/60'}`}
            >
              <div className="w-36 shrink-0">
                {i === 0 || readOnly ? (
                  <span className="text-sm font-medium text-slate-700">{label}</span>
                ) : (
                  <select
                    aria-label={`Row ${i + 1} type`}
                    value={row.type}
                    onChange={(e) => onChange(setRowType(rows, i, e.target.value as SearchRow['type']))}
                    className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
                  >
                    <option value="+">And include</option>
                    {(excludeOk || exclude) && <option value="-">Do not include</option>}
                  </select>
                )}
              </div>
              {row.searches.map((term, j) => (
                <div key={j} className="flex items-center gap-1">
                  {j > 0 && <span className="text-xs font-medium uppercase text-slate-400">or</span>}
                  <span className="relative inline-flex items-center">
                    <input
                      type="text"
                      aria-label={`Row ${i + 1} term ${j + 1}`}
                      value={term}
                      readOnly={readOnly}
                      placeholder={exclude ? 'term to exclude' : i === 0 && j === 0 ? '#hashtag' : 'term'}
                      onChange={(e) => onChange(setTerm(rows, i, j, e.target.value))}
                      style={{ width: inputWidth(term) }}
                      className={`h-8 rounded-md border bg-white pl-2 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500 read-only:bg-slate-50 ${row.searches.length > 1 && !readOnly ? 'pr-7' : 'pr-2'} ${error && i === 0 ? 'border-red-400' : 'border-slate-300'}`}
                    />
                    {row.searches.length > 1 && !readOnly && (
                      <button
                        type="button"
                        aria-label={`Remove row ${i + 1} term ${j + 1}`}
                        onClick={() => onChange(removeInput(rows, i, j))}
                        className="absolute right-0.5 inline-flex h-6 w-6 items-center justify-center rounded text-slate-400 hover:text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                      >
                        ×
                      </button>
                    )}
                  </span>
                </div>
              ))}
              {more && (
                <button type="button" aria-label={`Add a term to row ${i + 1}`} onClick={() => onChange(addInput(rows, i))} className={iconButton}>
                  +
                </button>
              )}
              {i > 0 && !readOnly && (
                <button
                  type="button"
                  aria-label={`Remove row ${i + 1}`}
                  onClick={() => onChange(removeRow(rows, i))}
                  className={`${iconButton} ml-auto`}
                >
                  <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                    <path d="M8 2a1 1 0 0 0-1 1v1H4a1 1 0 0 0 0 2h12a1 1 0 1 0 0-2h-3V3a1 1 0 0 0-1-1H8Zm-3 6 1 9a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1l1-9H5Z" />
                  </svg>
                </button>
              )}
            </div>
          );
        })}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {more && (
          <button
            type="button"
            onClick={() => onChange(addRow(rows))}
            className="inline-flex h-8 items-center gap-1 rounded-md px-2 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            + Add row
          </button>
        )}
        <span className="text-xs text-slate-500" data-testid="search-counts">
          Searches {count} of {limits.maxSearches} · Excluded terms {ignored} of {limits.maxIgnored}
        </span>
      </div>
      <p role="status" className="text-xs">
        {limitText ? (
          <span className="mt-1 inline-flex flex-wrap items-center gap-x-1.5 font-medium text-amber-800" data-testid="search-limit">
            <IconLock size={12} className="shrink-0 text-amber-600" />
            {limitText}{' '}
            <Link to="/pricing" className="text-brand-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
              {UPGRADE_TEXT}
            </Link>
          </span>
        ) : null}
      </p>
      {error && (
        <p id="search-error" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
