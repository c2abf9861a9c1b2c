// Centered modal on a Radix dialog: Escape, overlay click and the close button hide it. A dialog
// holding a step of its own (an inline confirm) may take Escape for that step first.
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { IconX } from './icons';

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  name,
  wide = false,
  initialFocus,
  onEscapeKeyDown,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** The modal's name (e.g. dashboardShare), kept as a data attribute. */
  name?: string;
  /** 640 px instead of 520 px, for dialogs holding lists with controls on each row. */
  wide?: boolean;
  /** What takes the focus on opening, instead of the first control (the close button). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Sees Escape before the dialog does: `preventDefault()` keeps the dialog open. */
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          data-modal={name}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[calc(100vh-2rem)] ${wide ? 'w-[min(94vw,640px)]' : 'w-[min(92vw,520px)]'} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-2xl focus:outline-none`}
          onOpenAutoFocus={(e) => {
            if (initialFocus?.current) {
              e.preventDefault();
              initialFocus.current.focus();
            }
          }}
          onEscapeKeyDown={onEscapeKeyDown}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-slate-500">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600" aria-label="Close">
              <IconX />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
