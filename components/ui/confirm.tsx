'use client';
import { useState, type ButtonHTMLAttributes } from 'react';
import { lazyComponent } from './lazy';
import type { ConfirmQuestion } from './confirm-dialog';

// The dialog's code (Radix AlertDialog) loads when a destructive button is first pressed.
const ConfirmDialog = lazyComponent(() => import('./confirm-dialog').then((m) => m.ConfirmDialog));

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'> & {
  /** The question asked before `onConfirm` runs. */
  confirm: ConfirmQuestion;
  onConfirm(): void;
};

/**
 * A button for a destructive action (revoke a link, restore a version, delete): pressing it asks
 * first, and only "yes" runs `onConfirm`.
 */
export function ConfirmButton({ confirm, onConfirm, children, ...button }: Props) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" {...button} aria-haspopup="dialog" onClick={() => setAsking(true)}>
        {children}
      </button>
      {asking ? <ConfirmDialog {...confirm} onConfirm={onConfirm} onClose={() => setAsking(false)} /> : null}
    </>
  );
}
