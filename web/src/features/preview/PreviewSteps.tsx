// The 4 steps of a preview made without the real-time stream, with the current one highlighted.
import { Spinner } from '../../components/Spinner';
import { PREVIEW_STEPS, STEP_LABELS } from './preview-flow';

export function PreviewSteps({ step }: { step: number }) {
  return (
    <div role="status" aria-label="Preview progress" data-preview-step={step} className="mb-6 rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm">
      <p className="font-medium text-slate-800">
        Step {step} of {PREVIEW_STEPS}: {STEP_LABELS[step - 1]}
      </p>
      <ol className="mt-2 grid gap-1 sm:grid-cols-4">
        {STEP_LABELS.map((label, i) => {
          const n = i + 1;
          const state = n < step ? 'done' : n === step ? 'current' : 'todo';
          return (
            <li key={label} data-state={state} className={`flex items-center gap-2 ${state === 'todo' ? 'text-slate-400' : 'text-slate-700'}`}>
              {state === 'current' ? (
                <Spinner className="h-3.5 w-3.5" />
              ) : (
                <span className={`h-2.5 w-2.5 rounded-full ${state === 'done' ? 'bg-emerald-500' : 'bg-slate-300'}`} aria-hidden="true" />
              )}
              {label}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
