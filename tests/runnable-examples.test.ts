/**
 * The examples the home page offers (lib/toolkits/examples.ts) do what they promise: the offline
 * planner plans each completely over its sample's tools — no required value left, no step the
 * pre-flight would refuse — and the plan runs green on the real sample server, in a fresh space
 * and again in the same one (a person clicks an example twice).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planRunHere, runExportHere } from '@/lib/mcp/run-port';
import { getSampleSpace } from '@/lib/mcp/sample-spaces';
import { LOCAL_OPTIONS } from '@/lib/mcp/__fixtures__/servers';
import { createOfflinePort } from '@/lib/planner/offline/port';
import { runPlanner } from '@/lib/planner/loop';
import { createPlannedDocument } from '@/lib/planner/operations';
import { getPlanOutcome } from '@/lib/planner/outcome';
import type { PlanEvent } from '@/lib/planner/types';
import { getRunRefusal } from '@/lib/run/preflight';
import { DEFAULT_RUN_LIMITS } from '@/lib/run/limits';
import { BUILTIN_TOOLKITS } from '@/lib/toolkits/builtin';
import { RUNNABLE_EXAMPLES } from '@/lib/toolkits/examples';
import { exportWorkflow } from '@/lib/workflow/export';

describe.each(RUNNABLE_EXAMPLES)('the example "$title"', (example) => {
  it('is planned completely offline and runs green, twice', async () => {
    const tools = BUILTIN_TOOLKITS.find((k) => k.key === example.toolkit)!.tools;
    let done: Extract<PlanEvent, { type: 'done' }> | undefined;
    for await (const event of runPlanner({ task: example.task, tools }, createOfflinePort()))
      if (event.type === 'done') done = event;
    expect(getPlanOutcome(done!)).toEqual({ kind: 'complete' });
    const doc = createPlannedDocument(example.task, done!.operations, tools);
    if (!doc.ok) throw new Error(JSON.stringify(doc.error));
    const file = exportWorkflow(doc.value, { id: 'wf_example', name: example.title });
    expect(file.nodes.flatMap((n) => n.problems.filter((p) => p.severity === 'error'))).toEqual([]);

    const options = {
      client: LOCAL_OPTIONS,
      config: {
        env: { TOOLFLOW_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'toolflow-example-')) },
        space: getSampleSpace('own_example'),
      },
      limits: DEFAULT_RUN_LIMITS,
    };
    const plan = await planRunHere(file, options);
    expect(getRunRefusal(plan)).toBeUndefined();
    for (const time of ['first', 'second']) {
      const outcome = await runExportHere(file, plan, options);
      const failed = outcome.nodes.filter((n) => n.status !== 'succeeded');
      expect(failed.map((n) => `${time} run: ${n.nodeId} ${n.status}: ${n.error?.message}`)).toEqual([]);
    }
  });
});
