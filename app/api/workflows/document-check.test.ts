/**
 * The write check on documents as a client may send them: random workflows, randomly broken,
 * that pass the request schema. The check must never throw (a 500 on a save), must refuse
 * exactly the documents whose export its own import refuses, and must locate every problem at a
 * place that exists in the document.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDocumentIssues } from '@/lib/workflow/check';
import { exportWorkflow } from '@/lib/workflow/export';
import { importWorkflow } from '@/lib/workflow/import';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { checkIssuePath, mutateJson, mutation, normalizeJson, type Json } from '@/tests/fuzz/json';
import { buildWorkflow, workflowDraft } from '@/tests/fuzz/workflows';
import { validateUpdateWorkflow } from './schema';

/** Names the check's paths use for members a document may lack. */
const ALIASES: Record<string, string> = { sourceOutput: 'output', targetInput: 'input', tool: 'tool_name' };

describe('the document check of every write', () => {
  it('accepts every workflow the builder and the editor commands make', () => {
    fc.assert(
      fc.property(workflowDraft, (draft) => {
        const { doc } = buildWorkflow(draft);
        expect(getDocumentIssues(normalizeJson<WorkflowDocument>(doc))).toEqual([]);
      }),
      { numRuns: 150, seed: 11 },
    );
  });

  it('refuses exactly the broken documents whose export would not import, naming places in the document', () => {
    let refused = 0;
    fc.assert(
      fc.property(workflowDraft, fc.array(mutation, { minLength: 1, maxLength: 3 }), (draft, changes) => {
        const document = mutateJson(normalizeJson<Json>(buildWorkflow(draft).doc), changes);
        if (!validateUpdateWorkflow({ version: 1, document })) return; // the request schema answers first
        const doc = document as unknown as WorkflowDocument;
        const issues = getDocumentIssues(doc);
        const reimported = importWorkflow(
          JSON.parse(JSON.stringify(exportWorkflow(doc, { id: 'w', name: 'w' }))),
        );
        expect(issues.length === 0, JSON.stringify(issues)).toBe(reimported.ok);
        if (issues.length > 0) refused++;
        for (const issue of issues) {
          expect(checkIssuePath(document, issue, ALIASES), `${issue.path}: ${issue.message}`).toBeUndefined();
        }
      }),
      { numRuns: 400, seed: 11 },
    );
    expect(refused, 'the mutations break some documents').toBeGreaterThan(10);
  });
});
