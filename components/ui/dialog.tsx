'use client';
/**
 * A modal dialog on Radix UI's Dialog: focus moves into it when it opens and stays inside while
 * it is open, Escape or a click outside closes it, the rest of the page is hidden from assistive
 * technology meanwhile, and focus goes back to the element that opened it. Rendered only while
 * open: the caller mounts it to open it and unmounts it on `onClose`.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type ReactNode } from 'react';
import { getOpener, returnFocus } from './focus-return';
import './dialog.css';

export interface ModalProps {
  /** The dialog's heading, which also names it for assistive technology. */
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  /** `center` (the default) floats over the page; `side` is a drawer along the right edge. */
  placement?: 'center' | 'side';
  /** A centred dialog's width: `normal` (the default, 560 px) or `wide` (640 px). */
  size?: 'normal' | 'wide';
  testId?: string;
  closeTestId?: string;
}

export function Modal({
  title,
  onClose,
  children,
  placement = 'center',
  size = 'normal',
  testId,
  closeTestId,
}: ModalProps) {
  // The element focused when the dialog mounted: the button that opened it.
  const [opener] = useState(getOpener);
  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className={`modal-overlay modal-overlay--${placement}`} />
        <Dialog.Content
          className={`modal modal--${placement}${size === 'wide' ? ' modal--wide' : ''}`}
          data-testid={testId}
          // The content describes itself; no single element is its description.
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener);
          }}
        >
          <header className="modal__head">
            <Dialog.Title className="modal__title">{title}</Dialog.Title>
            <Dialog.Close className="link-btn" data-testid={closeTestId}>
              Close
            </Dialog.Close>
          </header>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
