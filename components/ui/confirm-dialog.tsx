'use client';
/**
 * The question before a destructive action, on Radix UI's AlertDialog: focus starts on Cancel,
 * Escape cancels, a click outside does nothing, and focus goes back to the button that asked.
 * Loaded on demand by ConfirmButton (confirm.tsx).
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState, type ReactNode } from 'react';
import { getOpener, returnFocus } from './focus-return';
import './dialog.css';

export interface ConfirmQuestion {
  /** What is about to happen, as a question: "Revoke this link?". */
  title: string;
  /** What follows from it, and whether it can be undone. */
  description: ReactNode;
  /** The confirming button's label: the action, not "OK" ("Revoke link"). */
  confirmLabel: string;
}

export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  onConfirm,
  onClose,
}: ConfirmQuestion & { onConfirm(): void; onClose(): void }) {
  const [opener] = useState(getOpener);
  return (
    <AlertDialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="modal-overlay modal-overlay--confirm" />
        <AlertDialog.Content
          className="modal modal--center modal--confirm"
          data-testid="confirm-dialog"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener);
          }}
        >
          <AlertDialog.Title className="modal__title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="modal__text">{description}</AlertDialog.Description>
          <div className="modal__actions">
            <AlertDialog.Cancel className="btn" data-testid="confirm-cancel">
              Cancel
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className="btn btn-danger-solid"
              onClick={onConfirm}
              data-testid="confirm-action"
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
