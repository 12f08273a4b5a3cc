'use client';
/**
 * Follows a run: starts from the state the page was rendered with, reads the NDJSON stream of
 * GET /api/runs/:id/events and applies each line as it arrives, and reconnects (the stream starts
 * with the whole stored state, so nothing is missed) until the run is final. A newer copy of the
 * run from elsewhere (Cancel's answer) is applied at once too.
 */
import { useCallback, useEffect, useState } from 'react';
import { openRunStream } from '@/lib/api/runs';
import type { NodeRunJson, RunJson, RunStreamLine } from '@/lib/api/types';
import { readNdjson } from '@/lib/editor/ndjson';
import { FINAL_RUN_STATUSES } from '@/lib/run/types';

export interface RunState {
  run: RunJson;
  nodes: NodeRunJson[];
}

export function useRunStream(initial: RunState): {
  state: RunState;
  problem: string | null;
  /** Applies a copy of the run newer than the one shown (by its revision). */
  applyRun(run: RunJson): void;
} {
  const [state, setState] = useState(initial);
  const applyRun = useCallback(
    (run: RunJson) => setState((shown) => (run.revision > shown.run.revision ? { ...shown, run } : shown)),
    [],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const runId = initial.run.id;
  const startedFinal = FINAL_RUN_STATUSES.has(initial.run.status);
  useEffect(() => {
    if (startedFinal) return;
    const controller = new AbortController();
    void (async () => {
      for (let attempt = 0; !controller.signal.aborted; attempt++) {
        let ended = false;
        try {
          const stream = await openRunStream(runId, { signal: controller.signal });
          if (!stream.ok) {
            setProblem(stream.error.message);
          } else {
            setProblem(null);
            for await (const raw of readNdjson(stream.value)) {
              const line = raw as RunStreamLine;
              if (line.type === 'state') {
                const next = { run: line.run, nodes: line.nodes };
                // Never back to an older copy than one applied meanwhile (Cancel's answer).
                setState((shown) =>
                  line.run.revision >= shown.run.revision ? next : { ...next, run: shown.run },
                );
              } else if (line.type === 'end') ended = true;
              else if (line.type === 'error') setProblem(line.message);
            }
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          setProblem(`Lost the connection to the run (${(error as Error).message}); reconnecting…`);
        }
        if (ended) return;
        await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * (attempt + 1))));
      }
    })();
    return () => controller.abort();
  }, [runId, startedFinal]);
  return { state, problem, applyRun };
}
