/**
 * The public planning-quality set (README.md beside this file): tasks as a person writes them,
 * each with the steps a careful person would build — tools in order, the values the text gives,
 * `{{step_N.output}}` references for the edges — and the parameters that must stay unset.
 * Read from `tasks/*.json` (and `held-out/`, `rounds/`); the toolsets are the built-in toolkits
 * and the tool lists of real MCP servers in `tools/`. A task that names an unknown tool, parameter or
 * output is an error with its file and JSON path, so the set cannot drift from the tools.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILTIN_TOOLKITS } from '../../lib/toolkits/builtin';
import { MATERIALS_TOOLS } from '../../lib/toolkits/builtin/materials';
import { importDeclarations } from '../../lib/tools/import';
import type { ToolDeclaration } from '../../lib/tools/types';
import { getOutputParameters, getParamPlan } from '../../lib/workflow/params';
import { getReferences, parseReference } from '../../lib/workflow/plan';

const HERE = fileURLToPath(new URL('./', import.meta.url));

/** One step as expected: the call a careful person would make. */
export interface ExpectedStep {
  tool: string;
  /** Values from the text, and `{{step_N.output}}` references for the inputs an edge feeds. */
  args: Record<string, unknown>;
  /** Parameters that must be neither set nor wired: the text does not give them. */
  unset: string[];
}

export interface QualityTask {
  id: string;
  /** The file it comes from, relative to this folder. */
  file: string;
  lang: 'en' | 'zh';
  toolset: ToolsetName;
  task: string;
  steps: ExpectedStep[];
  /** What the task checks, when that is not obvious. */
  why?: string;
}

/**
 * Toolsets read from `tools/`: one tool list, or several offered together. Each file is a real
 * server's tools/list answer (`captured_from`), a list written by hand from a server's documented
 * tools (`written/`), or a real list rewritten in another provider's shape (`converted/`).
 */
const TOOLSET_FILES = {
  filesystem: ['filesystem.json'],
  memory: ['memory.json'],
  everything: ['everything.json'],
  'filesystem+memory': ['filesystem.json', 'memory.json'],
  github: ['written/github.json'],
  slack: ['written/slack.json'],
  sqlite: ['written/sqlite.json'],
  'google-maps': ['google-maps.json'],
  amap: ['amap.json'],
  gitlab: ['gitlab.json'],
  kubernetes: ['kubernetes.json'],
  postgres: ['postgres.json'],
  gmail: ['gmail.json'],
  'brave-search-openai': ['converted/brave-search.openai-chat.json'],
  'puppeteer-anthropic': ['converted/puppeteer.anthropic.json'],
  'time-gemini': ['converted/time.gemini.json'],
  airbnb: ['airbnb.json'],
  'google-calendar': ['google-calendar.json'],
  'baidu-map': ['baidu-map.json'],
  repomix: ['repomix.json'],
  'fetch-openai': ['converted/fetch.openai-chat.json'],
  'redis-anthropic': ['converted/redis.anthropic.json'],
  'howtocook-gemini': ['converted/howtocook.gemini.json'],
  firecrawl: ['firecrawl.json'],
  todoist: ['todoist.json'],
  lark: ['lark.json'],
  'tavily-openai': ['converted/tavily.openai-chat.json'],
  'exa-anthropic': ['converted/exa.anthropic.json'],
  'context7-gemini': ['converted/context7.gemini.json'],
  playwright: ['playwright.json'],
  sentry: ['sentry.json'],
  'stock-sdk': ['stock-sdk.json'],
  'notion-anthropic': ['converted/notion.anthropic.json'],
  'linear-openai': ['converted/linear.openai-chat.json'],
  'weather-gemini': ['converted/weather.gemini.json'],
  'bazi-gemini': ['converted/bazi.gemini.json'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Catalogues: every built-in toolkit plus a round's tool lists at once, as a person who imported
 * them all plans with everything ticked (tool choice must not depend on the catalogue's size).
 */
const CATALOGUES = {
  'round-a-catalogue': [
    'google-maps.json',
    'amap.json',
    'gitlab.json',
    'kubernetes.json',
    'postgres.json',
    'gmail.json',
    'converted/brave-search.openai-chat.json',
    'converted/puppeteer.anthropic.json',
    'converted/time.gemini.json',
  ],
  'round-b-catalogue': [
    'airbnb.json',
    'google-calendar.json',
    'baidu-map.json',
    'repomix.json',
    'converted/fetch.openai-chat.json',
    'converted/redis.anthropic.json',
    'converted/howtocook.gemini.json',
  ],
  'round-c-catalogue': [
    'firecrawl.json',
    'todoist.json',
    'lark.json',
    'converted/tavily.openai-chat.json',
    'converted/exa.anthropic.json',
    'converted/context7.gemini.json',
  ],
  'round-d-catalogue': [
    'playwright.json',
    'sentry.json',
    'stock-sdk.json',
    'converted/notion.anthropic.json',
    'converted/linear.openai-chat.json',
    'converted/weather.gemini.json',
    'converted/bazi.gemini.json',
  ],
} as const satisfies Record<string, readonly string[]>;

export const TOOLSET_NAMES = [
  'builtin',
  'materials-untyped',
  'filesystem-untyped',
  ...(Object.keys(TOOLSET_FILES) as (keyof typeof TOOLSET_FILES)[]),
  ...(Object.keys(CATALOGUES) as (keyof typeof CATALOGUES)[]),
] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** What a tool file says about where it came from, beside the declarations themselves. */
const PROVENANCE_KEYS = [
  'captured_from',
  'written_by_hand',
  'converted',
  'declared_in',
  'not_carried',
  'schema_keywords_dropped',
];

/** The tools of one file in `tools/`, read by the app's importer (any provider shape). */
function readToolFile(file: string): ToolDeclaration[] {
  const json = JSON.parse(readFileSync(`${HERE}tools/${file}`, 'utf8')) as Record<string, unknown>;
  const declarations = Object.fromEntries(Object.entries(json).filter(([k]) => !PROVENANCE_KEYS.includes(k)));
  const server = file.replace(/^.*\//, '').replace(/\..*$/, '');
  const imported = importDeclarations(declarations, { source: { kind: 'mcp-stdio', server } });
  if (!imported.ok) throw new Error(`tools/${file}: ${JSON.stringify(imported.error)}`);
  return imported.value.tools;
}

/** Several lists offered at once; two tools of one name would make the expected steps ambiguous. */
function combine(name: string, lists: ToolDeclaration[][]): ToolDeclaration[] {
  const tools = lists.flat();
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new Error(`toolset ${name}: two tools are named "${tool.name}"`);
    seen.add(tool.name);
  }
  return tools;
}

/** The same tools as a declaration file without outputSchema (one untyped `result` output each). */
function withoutOutputSchemas(tools: readonly ToolDeclaration[]): ToolDeclaration[] {
  return tools.map(({ outputSchema: _outputSchema, ...rest }) => rest);
}

const toolsets = new Map<ToolsetName, ToolDeclaration[]>();

const builtinTools = () => BUILTIN_TOOLKITS.flatMap((kit) => kit.tools);

/** The tools a task plans with (cached: the set shares them). */
export function getToolset(name: ToolsetName): ToolDeclaration[] {
  let tools = toolsets.get(name);
  if (tools) return tools;
  if (name === 'builtin') tools = builtinTools();
  else if (name === 'materials-untyped') tools = withoutOutputSchemas(MATERIALS_TOOLS);
  else if (name === 'filesystem-untyped') tools = withoutOutputSchemas(readToolFile('filesystem.json'));
  else if (Object.hasOwn(CATALOGUES, name)) {
    const files: readonly string[] = CATALOGUES[name as keyof typeof CATALOGUES];
    tools = combine(name, [builtinTools(), ...files.map(readToolFile)]);
  } else {
    const files: readonly string[] = TOOLSET_FILES[name as keyof typeof TOOLSET_FILES];
    tools = combine(name, files.map(readToolFile));
  }
  toolsets.set(name, tools);
  return tools;
}

/**
 * Every task of a folder, in file then task order; throws naming every problem found. `tasks`
 * is the public set; `held-out` a round measured at first sight whose rules have not reached the
 * targets yet (scored for wrong values by offline.test.ts, and by the bench with
 * PLANNER_QUALITY_FILES); `rounds` fresh rounds over tool lists the rules were not written for,
 * recorded at first sight and scored only by the bench with PLANNER_QUALITY_FILES.
 */
export function loadQualitySet(folder: 'tasks' | 'held-out' | 'rounds' = 'tasks'): QualityTask[] {
  const files = readdirSync(HERE + folder)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const tasks: QualityTask[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const name of files) {
    const file = `${folder}/${name}`;
    const json = JSON.parse(readFileSync(HERE + file, 'utf8')) as { tasks?: unknown };
    if (!Array.isArray(json.tasks)) {
      problems.push(`${file}: expected {"tasks": [...]}`);
      continue;
    }
    json.tasks.forEach((raw, i) => {
      const at = `${file} /tasks/${i}`;
      const task = readTask(raw, file, at, problems);
      if (!task) return;
      if (ids.has(task.id)) problems.push(`${at}/id: "${task.id}" is used twice`);
      ids.add(task.id);
      tasks.push(task);
    });
  }
  if (problems.length > 0) throw new Error(`The planning-quality set is invalid:\n${problems.join('\n')}`);
  return tasks;
}

function readTask(raw: unknown, file: string, at: string, problems: string[]): QualityTask | undefined {
  const t = raw as Partial<Record<string, unknown>>;
  if (typeof t !== 'object' || t === null) return void problems.push(`${at}: not an object`);
  const known = new Set(['id', 'tools', 'task', 'steps', 'why']);
  for (const key of Object.keys(t)) if (!known.has(key)) problems.push(`${at}/${key}: unknown field`);
  if (typeof t.id !== 'string' || t.id === '') return void problems.push(`${at}/id: a non-empty string`);
  if (typeof t.task !== 'string' || t.task.trim() === '')
    return void problems.push(`${at}/task: a non-empty string`);
  if (!TOOLSET_NAMES.includes(t.tools as ToolsetName))
    return void problems.push(`${at}/tools: one of ${TOOLSET_NAMES.join(', ')}`);
  if (!Array.isArray(t.steps) || t.steps.length === 0)
    return void problems.push(`${at}/steps: a non-empty array`);
  const toolset = t.tools as ToolsetName;
  const byName = new Map(getToolset(toolset).map((d) => [d.name, d]));
  const steps: ExpectedStep[] = [];
  t.steps.forEach((rawStep, s) => {
    const stepAt = `${at}/steps/${s}`;
    const step = rawStep as Partial<Record<string, unknown>>;
    const decl = typeof step.tool === 'string' ? byName.get(step.tool) : undefined;
    if (!decl)
      return void problems.push(`${stepAt}/tool: "${String(step.tool)}" is not a tool of ${toolset}`);
    const params = new Set(getParamPlan(decl).map((p) => p.name));
    const args = (step.args ?? {}) as Record<string, unknown>;
    const unset = (step.unset ?? []) as string[];
    for (const [name, value] of Object.entries(args)) {
      if (!params.has(name)) problems.push(`${stepAt}/args/${name}: ${decl.name} has no such parameter`);
      const ref = parseReference(value);
      if (!ref) {
        if (getReferences(value).length > 0)
          problems.push(`${stepAt}/args/${name}: a reference must be the whole value`);
        continue;
      }
      const source = /^step_(\d+)$/.exec(ref.step);
      const index = source ? Number(source[1]) - 1 : -1;
      if (index < 0 || index >= s) {
        problems.push(`${stepAt}/args/${name}: ${ref.step} is not an earlier step`);
        continue;
      }
      const sourceTool = byName.get((t.steps as ExpectedStep[])[index].tool);
      if (sourceTool && !getOutputParameters(sourceTool).some((o) => o.name === ref.output))
        problems.push(`${stepAt}/args/${name}: ${sourceTool.name} has no output "${ref.output}"`);
    }
    for (const name of unset) {
      if (!params.has(name)) problems.push(`${stepAt}/unset: ${decl.name} has no parameter "${name}"`);
      if (name in args) problems.push(`${stepAt}/unset: "${name}" is also in args`);
    }
    steps.push({ tool: decl.name, args, unset });
  });
  return {
    id: t.id,
    file,
    lang: /[\u3400-\u9fff]/.test(t.task) ? 'zh' : 'en',
    toolset,
    task: t.task,
    steps,
    ...(typeof t.why === 'string' ? { why: t.why } : {}),
  };
}
