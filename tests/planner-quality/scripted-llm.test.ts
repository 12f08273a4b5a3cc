/**
 * The language-model path on the quality set: the scripted OpenAI-protocol server (real HTTP, the
 * real openai SDK, Chat Completions and Responses) answers each task with the task's expected
 * calls, and the planning loop must build exactly the expected graph from them. Then it answers
 * with the offline planner's own calls, and the document must be the one the offline path built:
 * the same calls make the same graph whichever planner made them.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIPort } from '../../lib/llm/openai-port';
import type { Scenario } from '../../lib/llm/testing/scenario';
import { startScriptedServer, type ScriptedServer } from '../../lib/llm/testing/server';
import { checkReply, checkRequest } from '../../lib/llm/testing/spec';
import { planOffline } from '../../lib/planner/offline/plan';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { getExpectedCalls, planTask } from './run';
import { getToolset, loadQualitySet } from './set';

const tasks = loadQualitySet();
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({ turns: [] });
});
afterAll(async () => {
  await server?.close();
});

/** One turn with every call (the loop numbers them step_1, step_2, … in order), then "Done.". */
function replay(calls: { name: string; arguments: unknown }[]): Scenario {
  return { turns: [{ text: 'Planning.', tool_calls: calls }, { text: 'Done.' }] };
}

/** What a person sees of a document: each node's tool and values, and the wires. */
function getGraph(doc: WorkflowDocument) {
  return {
    nodes: doc.nodes.map((n) => ({ id: n.id, tool: n.tool, args: n.args, unknownArgs: n.unknownArgs ?? [] })),
    edges: doc.edges.map((e) => [e.source, e.sourceOutput, e.target, e.targetInput]),
  };
}

async function planWithModel(task: (typeof tasks)[number], api: 'chat' | 'responses', scenario: Scenario) {
  server.setScenario(scenario);
  const before = { requests: server.requests.length, replies: server.replies.length };
  const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
  const planned = await planTask(task, createOpenAIPort({ client, model: 'scripted', api }));
  const problems = [
    ...server.requests.slice(before.requests).flatMap(checkRequest),
    ...server.replies.slice(before.replies).flatMap((r, i) => checkReply(r, i)),
  ];
  return { ...planned, problems };
}

describe.each(['chat', 'responses'] as const)('the %s API on the quality set', (api) => {
  it.each(tasks.map((t) => [t.id, t] as const))(
    'builds the expected graph of %s from the expected calls',
    async (_id, task) => {
      const { score, done, problems } = await planWithModel(task, api, replay(getExpectedCalls(task)));
      expect(problems).toEqual([]);
      expect(done.stopReason).toBe('no_tool_calls');
      expect(score.problems).toEqual([]);
      expect(score.nodes.extra + score.edges.extra + score.wrongValues).toBe(0);
    },
  );
});

// Once, through Chat Completions: both APIs are shown equal on the expected calls above.
describe("the chat API on the offline planner's calls", () => {
  it.each(tasks.map((t) => [t.id, t] as const))(
    "builds the offline path's graph of %s from the offline planner's calls",
    async (_id, task) => {
      const offline = await planTask(task);
      const { calls } = planOffline({ task: task.task, tools: getToolset(task.toolset) });
      const viaModel = await planWithModel(
        task,
        'chat',
        replay(calls.map((c) => ({ name: c.tool, arguments: c.args }))),
      );
      expect(viaModel.problems).toEqual([]);
      expect(getGraph(viaModel.doc)).toEqual(getGraph(offline.doc));
      expect(JSON.stringify(viaModel.score)).toBe(JSON.stringify(offline.score));
    },
  );
});
