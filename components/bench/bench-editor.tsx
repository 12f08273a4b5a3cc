'use client';
import { useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { EditorStoreProvider } from '@/lib/editor/context';
import { generateWorkflow } from '@/lib/bench/generate-workflow';
import { createEditorStore } from '@/lib/editor/store';
import type { NodeIssue } from '@/lib/workflow/types';
import { WorkflowCanvas } from '@/components/canvas/workflow-canvas';
import { BenchProbe } from './bench-probe';

/** Our editor canvas on a generated n-node workflow, with no database: the benchmark's subject. */
export function BenchEditor({ n, valueProblems }: { n: number; valueProblems: Record<string, NodeIssue[]> }) {
  const [store] = useState(() =>
    createEditorStore({
      meta: { id: 'bench', name: `Bench ${n}`, version: 1, readOnly: false },
      doc: generateWorkflow(n),
      valueProblems,
    }),
  );
  return (
    <EditorStoreProvider store={store}>
      <ReactFlowProvider>
        <div className="bench-page" data-testid="bench-ours">
          <WorkflowCanvas>
            <BenchProbe />
          </WorkflowCanvas>
        </div>
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
