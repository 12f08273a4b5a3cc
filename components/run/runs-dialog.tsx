'use client';
import { useEditorStore } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { Modal } from '@/components/ui/dialog';
import { RunsList } from './runs-list';

const selectId = (s: EditorState) => s.meta.id;

/** The workflow's test-runs in a dialog over the editor. */
export function RunsDialog({ onClose }: { onClose: () => void }) {
  const id = useEditorStore(selectId);
  return (
    <Modal title="Test-runs" onClose={onClose} testId="runs-dialog" closeTestId="runs-close">
      <RunsList workflowId={id} />
    </Modal>
  );
}
