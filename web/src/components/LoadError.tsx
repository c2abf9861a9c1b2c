// A failed load in place of a list or panel body: what went wrong and a button to load again.
import { loadErrorMessage } from '../lib/errors';
import { Button } from './Button';

export function LoadError({ error, onRetry, compact = false }: { error: unknown; onRetry: () => void; compact?: boolean }) {
  return (
    <div role="alert" className={`${compact ? 'py-8' : 'p-8'} text-center text-sm text-red-700`}>
      {loadErrorMessage(error)}
      <div className="mt-3">
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </div>
  );
}
