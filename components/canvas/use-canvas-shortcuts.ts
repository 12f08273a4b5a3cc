'use client';
/**
 * Editor keyboard shortcuts: undo/redo, copy/paste/duplicate, select all, clear selection.
 * Delete and Backspace are React Flow's (they arrive as `onDelete`). Keys typed into a field
 * (the inspector, a label) are left to the field, so Ctrl+Z there undoes text, not the graph, and
 * keys pressed in a dialog are left to the dialog.
 */
import { useEffect } from 'react';
import { useEditorStoreApi } from '@/lib/editor/context';
import type { NodeId } from '@/lib/workflow/types';

/** Whether the key event belongs to a text field rather than the canvas. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/** Whether the key event comes from an open dialog, which covers the canvas and takes its own keys. */
function isInDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]') !== null;
}

export function useCanvasShortcuts() {
  const store = useEditorStoreApi();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target) || isInDialog(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const s = store.getState();
      let handled = true;
      if (mod && key === 'z' && !event.shiftKey) s.undo();
      else if (mod && ((key === 'z' && event.shiftKey) || key === 'y')) s.redo();
      else if (mod && key === 'c') {
        // Leave a text selection (the JSON panel, a message) to the browser.
        if (window.getSelection()?.toString() || s.selectedNodeIds.length === 0) handled = false;
        else s.copySelection();
      } else if (mod && key === 'v' && s.clipboard) s.paste();
      else if (mod && key === 'd') s.duplicateSelection();
      else if (mod && key === 'a') s.selectNodes(s.doc.nodes.map((n) => n.id as NodeId));
      else if (key === 'escape' && s.selectedNodeIds.length > 0) s.selectNodes([]);
      else handled = false;
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [store]);
}
