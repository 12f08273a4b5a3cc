/**
 * `npm run bench -- planner`: how long a streamed tool call takes to become a step event, through
 * the real SDK against the scripted server on 127.0.0.1 (no artificial delays), on both APIs.
 *
 *  - first delta → step: from the first argument delta of a call reaching the port to the loop's
 *    step event (SSE parsing, accumulation, JSON parse, references, node parameters + Ajv);
 *  - complete → step: from the port emitting the finished call to the step event (the loop's
 *    own work per step).
 *
 * Medians and 95th percentiles over every call of several runs; target < 5 ms per step.
 */
import { allowServerOnlyImports } from '../../lib/server-context';
import { materialsTools } from '../../lib/planner/__fixtures__/tools';
import { runPlanner } from '../../lib/planner/loop';
import type { ModelEvent, ModelPort } from '../../lib/planner/types';
import type { ScriptedTurn } from '../../lib/llm/testing/scenario';
import { startScriptedServer } from '../../lib/llm/testing/server';
import type { BenchRow } from './types';

export const title = 'planner';

const CALLS_PER_TURN = 24;
const RUNS = 6;
const TARGET_MS = 5;

/** A turn of parallel calls with realistic argument sizes (URLs, numbers, a wired reference). */
function createTurn(): ScriptedTurn {
  const tool_calls = Array.from({ length: CALLS_PER_TURN }, (_, i) =>
    i % 2 === 0
      ? {
          name: 'optimize_structure',
          arguments: {
            input_structure: `https://example.org/structures/batch-${i}/Cu_bulk_${i}.cif`,
            model_path: 'https://example.org/models/dpa-2.4-7M.pt',
            force_tolerance: 0.005,
            max_iterations: 250,
            relax_cell: i % 4 === 0,
            head: 'Omat24',
          },
        }
      : {
          name: 'calculate_phonons',
          arguments: {
            structure_path: `{{step_${i}.optimized_structure}}`,
            model_path: 'https://example.org/models/dpa-2.4-7M.pt',
            supercell: [3, 3, 3],
            displacement: 0.01,
          },
        },
  );
  return { text: 'Planning the batch.', tool_calls, chunk_size: 16 };
}

/** Wraps a port to note when each call's first delta arrived and when the call completed. */
function createTimedPort(port: ModelPort, firstDelta: number[], completed: number[]): ModelPort {
  return {
    ...port,
    async *turn(request) {
      const seen = new Set<string>();
      for await (const event of port.turn(request) as AsyncIterable<ModelEvent>) {
        if (event.type === 'tool_call_delta' && !seen.has(event.key)) {
          seen.add(event.key);
          firstDelta.push(performance.now());
        }
        if (event.type === 'tool_call') completed.push(performance.now());
        yield event;
      }
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Measure both figures on both APIs (see the module comment). */
export async function run(): Promise<BenchRow[]> {
  allowServerOnlyImports();
  const [{ default: OpenAI }, { createOpenAIPort }] = await Promise.all([
    import('openai'),
    import('../../lib/llm/openai-port'),
  ]);
  const rows: BenchRow[] = [];
  for (const api of ['chat', 'responses'] as const) {
    const server = await startScriptedServer({ turns: [], after: createTurn() });
    const client = new OpenAI({ apiKey: 'bench', baseURL: server.baseURL, maxRetries: 0 });
    const fromFirst: number[] = [];
    const fromComplete: number[] = [];
    try {
      for (let runIndex = 0; runIndex < RUNS + 1; runIndex++) {
        const firstDelta: number[] = [];
        const completed: number[] = [];
        const stepAt: number[] = [];
        const port = createTimedPort(
          createOpenAIPort({ client, model: 'bench', api }),
          firstDelta,
          completed,
        );
        for await (const event of runPlanner({ task: 'bench', tools: materialsTools }, port, {
          maxIterations: 1,
        })) {
          if (event.type === 'step') stepAt.push(performance.now());
        }
        if (stepAt.length !== CALLS_PER_TURN || firstDelta.length !== CALLS_PER_TURN) {
          throw new Error(
            `expected ${CALLS_PER_TURN} steps, got ${stepAt.length} (deltas ${firstDelta.length})`,
          );
        }
        if (runIndex === 0) continue; // warm-up: JIT, Ajv compilation, first connection
        stepAt.forEach((at, i) => {
          fromFirst.push(at - firstDelta[i]);
          fromComplete.push(at - completed[i]);
        });
      }
    } finally {
      await server.close();
    }
    const note = `${api}, streamed, ${RUNS}×${CALLS_PER_TURN} calls, 16-char deltas, p95 ${percentile(fromFirst, 95).toFixed(2)} ms`;
    rows.push({
      figure: `first delta → step (${api}), median`,
      value: percentile(fromFirst, 50),
      unit: 'ms',
      target: TARGET_MS,
      better: 'lower',
      note,
    });
    rows.push({
      figure: `complete call → step (${api}), median`,
      value: percentile(fromComplete, 50),
      unit: 'ms',
      target: TARGET_MS,
      better: 'lower',
      note: `loop work per step (JSON, references, node parameters, Ajv); p95 ${percentile(fromComplete, 95).toFixed(2)} ms`,
    });
  }
  return rows;
}
