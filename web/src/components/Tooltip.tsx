// A Radix tooltip with the app's look. The trigger must be focusable for keyboard users.
import * as RT from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';

export function TooltipProvider({ children }: { children: ReactNode }) {
  return <RT.Provider delayDuration={200}>{children}</RT.Provider>;
}

export function Tooltip({
  content,
  children,
  side = 'top',
  open,
  onOpenChange,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: 'top' | 'bottom' | 'left' | 'right';
  /** Held by the caller instead of by the tooltip (e.g. kept shut while a popover of the same trigger is open). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  if (!content) return <>{children}</>;
  return (
    <RT.Root open={open} onOpenChange={onOpenChange}>
      <RT.Trigger asChild>{children}</RT.Trigger>
      <RT.Portal>
        <RT.Content
          side={side}
          sideOffset={6}
          className="z-50 max-w-xs rounded-md bg-slate-900 px-3 py-2 text-xs leading-snug text-white shadow-lg"
        >
          {content}
          <RT.Arrow className="fill-slate-900" />
        </RT.Content>
      </RT.Portal>
    </RT.Root>
  );
}
