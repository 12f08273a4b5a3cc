/**
 * Wiring steps together and carrying values between them, after each step took the values its
 * own clauses give (values.ts). In order, for each step:
 *  1. an earlier output that shares a meaningful word with a required input the text left empty
 *     (`optimized_structure` → `input_structure`, "Cell values row by row" → "one inner list per
 *     row") is wired to it;
 *  2. "then … its / it / the result" (然后…其/它/结果), or an action after then/然后/再/并 with
 *     one input left empty: the previous step's result feeds the one input it fits — one the text
 *     left empty, or the file the previous step worked on, passing over a name, id or number
 *     another step was given (step 3 carries it); two such inputs are a guess, and a note says
 *     so instead — when that result is
 *     untyped (a tool without outputSchema has one `result`, which fits any input) and the tool
 *     that made it returns data, not a status (create, write, delete… return a status: "create
 *     ./reports and then list it" means the directory);
 *  3. a value the text gives once applies to every other step with that parameter: a required
 *     parameter, or a setting the whole task shares (the repository, the file, the sheet, the
 *     model), nearest step first — unless it names something new the step creates;
 *  4. the previous step's file or URL output feeds the main input when that takes a file, path or
 *     structure; its untyped result feeds a list or object input, which text cannot give anyway.
 * Anything else stays empty and shows as a missing value: a commit message is not "the output of
 * git status".
 */
import { isTypeCompatible } from '../../workflow/typed-wiring';
import type { Clause } from './clauses';
import {
  GENERIC_PORT_WORDS,
  type IndexedOutput,
  type IndexedParam,
  type IndexedTool,
  type ToolIndex,
} from './tool-index';
import { getIdentifiedThing, isIdentifierParam } from './identifiers';
import type { Group } from './values';

/** One call being planned; references to earlier steps are `{{step_N.output}}`. */
export interface WiredCall {
  id: string;
  args: Record<string, unknown>;
}

interface Source {
  id: string;
  tool: IndexedTool | undefined;
  args: Record<string, unknown>;
  /** Args the text gave this step (not wired, not carried over): what may be carried on. */
  given: Record<string, unknown>;
}

interface Wire {
  source: Source;
  output: IndexedOutput;
}

/** Words that say an output is a file or a link to one. */
const FILE_WORDS = new Set(['path', 'fil', 'url', 'uri', 'dir', 'directory', 'folder', 'link', 'locat']);

/** "it", "its", "them", "the result", 其, 它, 结果: the clause refers back to what came before. */
const BACK_REFERENCE =
  /\b(?:it|its|them|their|those|these|the (?:results?|outputs?))\b|其(?![他中余次实])|它|结果|这些|那些|这次|上一步/i;

/**
 * Whether a group's clauses refer back to the previous step's result: "it", "the result", 其, or
 * an action that follows "then", 然后, 再 or 并 and gives no value of its own ("然后计算声子谱":
 * the phonons of what was just optimised).
 */
export function refersBack(clauses: readonly Clause[]): boolean {
  return (
    clauses.some((c) => BACK_REFERENCE.test(c.prose)) ||
    (clauses[0]?.sequenced === true && clauses.every((c) => c.literals.length === 0))
  );
}

/** Wire and carry values between the planned calls (see the module comment). */
export function wireSteps(
  index: ToolIndex,
  calls: WiredCall[],
  existing: { id: string; tool: string; args: Record<string, unknown> }[],
  groups: Group[],
  notes: string[] = [],
): void {
  const sources: Source[] = existing.map((s) => ({
    id: s.id,
    tool: index.byName.get(s.tool),
    args: s.args,
    given: withoutReferences(s.args),
  }));
  const given = calls.map((call) => withoutReferences(call.args));
  calls.forEach((call, i) => {
    const tool = groups[i].tool;
    const used = new Set<IndexedOutput>();
    const connect = (param: IndexedParam, wire: Wire) => {
      call.args[param.name] = `{{${wire.source.id}.${wire.output.name}}}`;
      used.add(wire.output);
    };
    const open = () => tool.params.filter((p) => p.required && !(p.name in call.args));
    // 1. Shared words, strongest first; a tie goes to the nearer step.
    const candidates: (Wire & { param: IndexedParam; score: number; distance: number })[] = [];
    for (const param of open()) {
      sources.forEach((source, s) => {
        for (const output of source.tool?.outputs ?? []) {
          // A band structure is what calculate_band_structure makes, not the structure it takes
          // (the same tool run again does take its own result).
          const ownProduct =
            source.tool !== tool &&
            [...output.nameTokens].some(
              (t) => tool.nameTokens.has(t) && !param.nameTokens.has(t) && !GENERIC_PORT_WORDS.has(t),
            );
          const score = ownProduct ? 0 : getSharedWordScore(output, param);
          if (score > 0) candidates.push({ param, source, output, score, distance: sources.length - s });
        }
      });
    }
    candidates.sort((a, b) => b.score - a.score || a.distance - b.distance);
    for (const c of candidates) if (!(c.param.name in call.args) && !used.has(c.output)) connect(c.param, c);

    // 2. "then … its / the result": the previous step's untyped result into the main input.
    // An input the text gave another step a name, id or number for keeps it (step 3): "Get issue
    // #42 of torvalds/linux and comment … on it" comments on that issue of that repository; a file
    // or structure input still takes the result ("relax ./Si.cif, then its phonons").
    const previous = sources[sources.length - 1];
    // A step that finds events gives an event: its result is the id of an event, not of the
    // calendar searched ("find the event 'Board meeting', then delete it").
    const identified = open().find((p) => isIdentifierParam(p) && isProductOf(p, previous?.tool));
    const main =
      identified ?? open().find((p) => p.holds.path || findCarriedValue(sources, p.name) === undefined);
    const clauses = groups[i].clauses;
    if (previous?.tool && !previous.tool.sideEffect && (refersBack(clauses) || clauses[0]?.sequenced)) {
      const result = previous.tool.outputs.find((o) => o.type === 'any' && !used.has(o));
      // The inputs the result can be: one no step was given a value for, or the file that carries
      // on what the previous step worked on (its main input: relax ./Si.cif, then its phonons;
      // a name or number given before keeps it), never one the step makes new. Two such (write_file's path and content after a read) make
      // it a guess, and neither is wired.
      const worked = previous.tool.params.find((p) => p.main)?.name;
      const fitting = identified
        ? [identified]
        : open().filter(
            (p) =>
              !p.holds.new &&
              ((p.name === worked && p.holds.path) || findCarriedValue(sources, p.name) === undefined),
          );
      // "然后写到 /tmp/b.txt": after "then", an action whose one open input the text leaves
      // empty takes what came before, as if it said "it".
      if (result && previous.tool.outputs.length === 1 && fitting.length === 1)
        connect(fitting[0], { source: previous, output: result });
      else if (result && previous.tool.outputs.length === 1 && fitting.length > 1 && refersBack(clauses))
        notes.push(
          `${call.id} (${tool.declaration.name}): the result of ${previous.id} could feed ${fitting.map((p) => p.name).join(' or ')}; none is wired, connect the one it is for.`,
        );
    }

    // 3. A value the text gave another step for the same parameter.
    const unclear = groups[i].unclear;
    for (const param of tool.params) {
      if (param.name in call.args || param.holds.new || unclear?.has(param.name)) continue;
      if (!param.required && !param.holds.setting) continue;
      const value = findCarriedValue(sources, param.name);
      if (value !== undefined) call.args[param.name] = value;
    }

    // 4. The previous step's file into the main input, or its untyped result into structured data.
    for (const param of open()) {
      const output = previous?.tool?.outputs.find(
        (o) =>
          !used.has(o) &&
          fits(o, param) &&
          ((param === main && isFileOutput(o) && param.holds.path) ||
            (o.type === 'any' && (param.type === 'list' || param.type === 'dict'))),
      );
      if (previous && output) connect(param, { source: previous, output });
    }
    // "write its content to /tmp/b.txt": a value that fitted two parameters is clear once an
    // edge feeds the other one.
    for (const [name, doubt] of unclear ?? []) {
      const rival = doubt.rival === undefined ? undefined : call.args[doubt.rival];
      if (name in call.args || typeof rival !== 'string' || !/^\{\{.*\}\}$/.test(rival)) continue;
      call.args[name] = doubt.value;
      given[i][name] = doubt.value;
    }
    sources.push({ id: call.id, tool, args: call.args, given: given[i] });
  });

  // 3, backwards: a setting given in a later step applies to the steps before it that have the
  // parameter ("show the status, stage README.md and commit, all in /home/me/proj").
  calls.forEach((call, i) => {
    const tool = groups[i].tool;
    for (const param of tool.params) {
      if (param.name in call.args || param.holds.new || !param.holds.setting) continue;
      if (groups[i].unclear?.has(param.name)) continue;
      for (let j = i + 1; j < calls.length; j++) {
        if (!(param.name in given[j])) continue;
        call.args[param.name] = given[j][param.name];
        break;
      }
    }
  });
}

/** Whether the thing an identifier names is what `tool` deals in (`eventId` of `search-events`). */
function isProductOf(param: IndexedParam, tool: IndexedTool | undefined): boolean {
  const thing = getIdentifiedThing(param);
  if (!tool || thing === undefined) return false;
  const words = tool.declaration.name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase());
  return words.some((w) => w === thing || w === `${thing}s` || w === `${thing}es`);
}

function withoutReferences(args: Record<string, unknown>): Record<string, unknown> {
  const given: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(args))
    if (!(typeof value === 'string' && /^\{\{.*\}\}$/.test(value))) given[name] = value;
  return given;
}

/** How much an output and an input have in common in meaningful words (0: nothing). */
function getSharedWordScore(output: IndexedOutput, param: IndexedParam): number {
  if (!fits(output, param)) return 0;
  const meaningful = (tokens: Iterable<string>) => [...tokens].filter((t) => !GENERIC_PORT_WORDS.has(t));
  const paramWords = new Set([...param.nameTokens, ...param.descriptionTokens]);
  const outputWords = new Set([...output.nameTokens, ...output.descriptionTokens]);
  const inNames = meaningful(param.nameTokens).filter((t) => output.nameTokens.has(t)).length;
  const anywhere = meaningful(paramWords).filter((t) => outputWords.has(t)).length;
  return 2 * inNames + anywhere;
}

/** Whether an output's type fits an input (a list of header names takes no list of rows). */
function fits(output: IndexedOutput, param: IndexedParam): boolean {
  if (!isTypeCompatible(output.type, param.type)) return false;
  return !(param.stringList && output.itemType !== undefined && output.itemType !== 'string');
}

function isFileOutput(output: IndexedOutput): boolean {
  return (
    output.type === 'str' &&
    [...output.nameTokens, ...output.descriptionTokens].some((t) => FILE_WORDS.has(t))
  );
}

/** The value the text gave the nearest earlier step for this parameter. */
function findCarriedValue(sources: Source[], name: string): unknown {
  for (let s = sources.length - 1; s >= 0; s--) {
    if (name in sources[s].given) return sources[s].given[name];
  }
  return undefined;
}
