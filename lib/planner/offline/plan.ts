/**
 * The offline planner (docs/design.md §6.9): deterministic, no model. It reads a task the way a person
 * would: it splits the task into clauses, picks the tool each clause asks for (by the words of
 * the tools' names, titles and descriptions, the action the clause starts with, and whether the
 * tool has a place for the values the clause gives), lets a clause that only adds values or
 * options refine the step before, fills each step's arguments from the values in the text
 * (values.ts), and wires the steps together and carries shared values between them (wiring.ts).
 * Where the text does not say, a value stays missing — and the person is told — rather than
 * guessed.
 */
import type { ToolDeclaration } from '../../tools/types';
import { splitClauses, type Clause, type PlacedLiteral } from './clauses';
import { getWords, stemWord, tokenize } from './text';
import { createToolIndex, type IndexedParam, type IndexedTool, type ToolIndex } from './tool-index';
import { getTerms, rankTools, type ToolScore } from './tool-ranking';
import { getContext, getNamingScore } from './context';
import { readBoolean } from './options';
import { placeLiteral } from './place';
import { getRangeCorners } from './spans';
import { fillArguments, type Group } from './values';
import { countItemsRead } from './items';
import { isBareHost, takesFullUrl } from './place';
import { fitsOpenParam, getOptionSettings, isAssignedToParam } from './open-params';
import { wireSteps } from './wiring';

export interface OfflinePlanInput {
  task: string;
  tools: ToolDeclaration[];
  systemParams?: readonly string[];
  /** Steps that already exist (a follow-up edit): wiring sources and values to reuse. */
  existingSteps?: { id: string; tool: string; args: Record<string, unknown> }[];
  /** Number of the first new step (`step_N`); 1 when omitted. */
  firstStepNumber?: number;
}

/** One call the offline planner makes; references to earlier steps are `{{step_N.output}}`. */
export interface OfflineCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** The clause(s) of the task this call comes from. */
  clause: string;
}

export interface OfflinePlan {
  calls: OfflineCall[];
  /** What the planner could not place, for the person to check. */
  notes: string[];
}

/** The most clauses (parts of a task between separators) the offline planner reads. */
const MAX_CLAUSES = 60;

/** Plan a task without a model (see the module comment). Deterministic: same input, same plan. */
export function planOffline(input: OfflinePlanInput): OfflinePlan {
  const index = createToolIndex(input.tools, input.systemParams);
  const notes: string[] = [];
  const all = splitClauses(input.task);
  // Each clause is weighed against the steps before it: past this many, a task is no longer one
  // workflow a person reads, and the planner's time would grow with the square of its length.
  const clauses = all.slice(0, MAX_CLAUSES);
  if (all.length > MAX_CLAUSES)
    notes.push(
      `The task has ${all.length} parts; the offline planner read the first ${MAX_CLAUSES} and ignored the rest, from "${all[MAX_CLAUSES].text.slice(0, 60)}".`,
    );
  let grouping = groupClauses(index, clauses);
  // A task usually works with one toolkit: read again, preferring for each clause the toolkits
  // the other steps use ("Check what is staged in /repos/site, then commit it": git, not the
  // spreadsheet tool that checks formulas).
  if (new Set(index.tools.map((t) => t.sourceKey)).size > 1 && grouping.groups.length > 1)
    grouping = groupClauses(index, clauses, grouping);
  const { groups, ignored } = grouping;
  if (groups.length === 0) {
    notes.push(
      index.tools.length === 0
        ? 'No tools are available to plan with: give the planner tool declarations first.'
        : "No tool matches the task: no tool's name or description speaks of an action or a thing the task names. Name the action in the words a tool's description uses, or plan with tools that do it.",
    );
    return { calls: [], notes };
  }
  for (const text of ignored)
    notes.push(`No tool or parameter matches "${text}"; that part of the task was ignored.`);

  const first = input.firstStepNumber ?? 1;
  const calls: OfflineCall[] = groups.map((group, i) => ({
    id: `step_${first + i}`,
    tool: group.tool.declaration.name,
    args: fillArguments(index, group, notes, getSharedClauses(groups, i)),
    clause: group.clauses.map((c) => c.text).join(' / '),
  }));
  wireSteps(index, calls, input.existingSteps ?? [], groups, notes);
  calls.forEach((call, i) => {
    for (const [name, doubt] of groups[i].unclear ?? [])
      if (!(name in call.args)) notes.push(`${call.id} (${call.tool}): ${doubt.note}`);
    const params = groups[i].tool.params;
    // Arguments in declaration order, as a person reads them in the inspector.
    const order = params.map((p) => p.name);
    call.args = Object.fromEntries(
      Object.entries(call.args).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
    );
    const left = params.filter((p) => p.required && !(p.name in call.args)).map((p) => p.name);
    if (left.length > 0)
      notes.push(
        `${call.id} (${call.tool}): the task does not say ${left.length === 1 ? 'the value of' : 'the values of'} ${left.join(', ')}; ${left.length === 1 ? 'it is' : 'they are'} left for you to fill in.`,
      );
  });
  return { calls, notes };
}

/**
 * "Create and switch to a new branch called feature-x in ./repo": a step whose words give no
 * value, joined by "and" to the next one, shares that one's values (both verbs take one object).
 */
function getSharedClauses(groups: readonly Group[], i: number): Clause[] {
  const next = groups[i + 1];
  if (!next || groups[i].clauses.some((c) => c.literals.length > 0)) return [];
  const lead = next.clauses[next.lead];
  return lead.soft ? [lead] : [];
}

interface Grouping {
  groups: Group[];
  /** Clauses nothing in the tools matches. */
  ignored: string[];
}

/**
 * Each clause starts a step or refines the one before (see `isRefinement`); a clause that only
 * says where ("在 ./budget.xlsx 的 Summary 表里，…", "In ./sales.xlsx, …") waits for the step
 * after it. With `before` (the first reading), each clause prefers the toolkits of the other steps.
 */
function groupClauses(index: ToolIndex, clauses: Clause[], before?: Grouping): Grouping {
  const groups: Group[] = [];
  const unplaced: Clause[] = [];
  const ignored: string[] = [];
  clauses.forEach((clause, c) => {
    const others = before?.groups.filter((g) => !g.clauses.includes(clause)).map((g) => g.tool.sourceKey);
    const ranking = rankClause(index, clause, others);
    const best = ranking[0];
    const previous = groups[groups.length - 1];
    // "Show the size and permissions of ./package.json": a part joined by "and" that starts with
    // no action continues the request before it, and the two are read as one for the tool.
    // A part that starts with a word of another tool's own name asks for that tool, verb or not
    // ("…, relate Alice to Bob": create_relations, not more of create_entities).
    const leading = getLeadingWord(clause);
    const namesOther =
      best !== undefined &&
      previous !== undefined &&
      best.tool !== previous.tool &&
      leading !== undefined &&
      best.tool.nameTokens.has(leading) &&
      !previous.tool.nameTokens.has(leading);
    const continues = previous !== undefined && clause.soft && !startsWithVerb(index, clause) && !namesOther;
    const rereadWith = (group: Group) => {
      group.clauses.push(clause);
      if (!continues || group.clauses.length !== group.lead + 2) return;
      const whole = rankClause(index, mergeClauses(group.clauses[group.lead], clause), others)[0];
      if (whole && whole.toolLevel > 0) group.tool = whole.tool;
    };
    // "then put =SUM(B2:B13) in B14": a formula or an SQL statement is itself what is to be done;
    // when the clause names no tool's action, the one tool with a place for it is the step.
    const sole = getSoleHolder(index, clause);
    if (sole && sole !== previous?.tool && (!best || best.toolLevel === 0 || best.tool === sole)) {
      groups.push({ tool: sole, clauses: [...unplaced, clause], lead: unplaced.length });
      unplaced.length = 0;
      return;
    }
    if (previous && isRefinement(index, previous, clause, best)) {
      rereadWith(previous);
      return;
    }
    // "from the literals LOG_LEVEL=debug and MAX_CONN=1000": more items of a list the step before
    // already fills.
    if (previous && extendsList(index, previous, clause)) {
      previous.clauses.push(clause);
      return;
    }
    // "Make a folder /srv/data/2024 and another one /srv/data/2025": values for the tool just
    // used, in a part that names no other tool's action, ask for the same step again.
    if (
      previous &&
      clause.literals.length > 0 &&
      !(best && best.tool !== previous.tool && namesAction(index, best.tool, clause, previous.tool)) &&
      fitsTool(index, previous.tool, clause)
    ) {
      groups.push({ tool: previous.tool, clauses: [clause], lead: 0 });
      return;
    }
    if (previous && continues && best && best.toolLevel > 0) {
      rereadWith(previous);
      return;
    }
    if (!previous && c + 1 < clauses.length && isOnlyContext(index, clause)) {
      unplaced.push(clause);
      return;
    }
    // A clause that names no tool's words but gives items only one kind of list holds ("Link
    // Carol to Dave as 'manages'": a relation) asks for the tool with that list.
    if (best && (best.toolLevel > 0 || best.items > 0)) {
      groups.push({ tool: best.tool, clauses: [...unplaced, clause], lead: unplaced.length });
      unplaced.length = 0;
      return;
    }
    if (previous) previous.clauses.push(clause);
    else unplaced.push(clause);
    const target = previous?.tool;
    const useful = clause.literals.length > 0 || clause.tokens.some((t) => target?.paramTokens.has(t.token));
    if (!useful && clause.tokens.length > 0) ignored.push(clause.text);
  });
  return { groups, ignored };
}

/** Whether every value of a clause joined by "and" is one more item of a list the step already fills. */
function extendsList(index: ToolIndex, previous: Group, clause: Clause): boolean {
  if (clause.literals.length === 0) return false;
  const already = fillArguments(index, previous, []);
  // The list's name said before its first item carries over to the items joined to it.
  return clause.literals.every((placed) =>
    previous.tool.params.some(
      (p) =>
        p.stringList &&
        Array.isArray(already[p.name]) &&
        previous.clauses.some((c) =>
          c.literals.some(
            (l) =>
              l.literal.kind === placed.literal.kind &&
              (already[p.name] as unknown[]).includes(l.literal.value),
          ),
        ) &&
        placeLiteral(index, placed, p, new Map([...p.nameTokens].map((t) => [t, 1]))) !== null,
    ),
  );
}

/** The one tool with a place for a formula or SQL statement of the clause, if exactly one has. */
function getSoleHolder(index: ToolIndex, clause: Clause): IndexedTool | undefined {
  const actions = clause.literals.filter((l) => l.literal.kind === 'formula' || l.literal.kind === 'sql');
  if (actions.length === 0) return undefined;
  const holders = index.tools.filter((tool) => {
    const placeable = getPlaceableLiterals(index, tool, clause);
    return actions.some((l) => placeable.has(l));
  });
  return holders.length === 1 ? holders[0] : undefined;
}

/** "In …", "at …", "在…里": a clause that starts with where. */
const PLACE_WORDS = /^(?:in|at|on|inside|within|under|from|在|于|从)(?![a-z])/i;

/**
 * Whether a clause only gives the setting of the request after it, with no action: it starts with
 * where ("In ./sales.xlsx, …", "在 ./budget.xlsx 的 Summary 表里，…"), or it is one value with the
 * name of a parameter ("…, sheet 'Jan', write …").
 */
function isOnlyContext(index: ToolIndex, clause: Clause): boolean {
  if (clause.literals.length === 0) return false;
  if (clause.tokens.some((t) => index.tools.some((tool) => (tool.verbs.get(t.token) ?? 0) >= 1)))
    return false;
  if (PLACE_WORDS.test(clause.text.trim())) return true;
  const words = clause.tokens.filter((t) => !t.extension);
  return (
    clause.literals.length === 1 &&
    words.length > 0 &&
    words.length <= 2 &&
    words.every((t) => index.tools.some((tool) => tool.params.some((p) => p.nameTokens.has(t.token))))
  );
}

// ---- which tool a clause asks for ----

/** A tool's score for one clause: words, the action it starts with, values it has a place for. */
interface ClauseScore extends ToolScore {
  /** How many of the tool's lists the clause gives items for (see `countItemsRead`). */
  items: number;
  total: number;
}

/** Verbs of tools that make new things. */
const CREATING_VERBS = new Set(['create', 'make', 'add', 'new', 'insert'].map(stemWord));
/** Words a request to add something starts with (stems; 添加/新增/记录/创建 as their bigrams). */
const ADDING_WORDS = new Set([
  ...'add create make new insert record register put link connect relate remember store'
    .split(' ')
    .map(stemWord),
  '添加',
  '新增',
  '增加',
  '记录',
  '创建',
  '新建',
]);

/** How much the action a clause starts with weighs (× the word's rarity). */
const VERB_WEIGHT = 3;
/** How much a value the tool has a place for weighs (× how few tools have one). */
const VALUE_WEIGHT = 2;
/** How much belonging to the toolkit of the task's other steps weighs. */
const COHERENCE_WEIGHT = 2;

/**
 * Rank the tools for a clause, best first: the words it shares with each tool (rankTools), plus
 * the action it starts with when that is the tool's own verb ("Stage …" is git_add; the same word
 * in "Staged changes" only describes, and counts as a description word), plus words written
 * exactly as in the tool's name or title ("what is staged" → "Staged changes"), plus each value
 * of the clause the tool has a place for — the rarer such a place, the more it says ("the last 5
 * commits": a count of commits is a parameter of git_log only), plus, on a second reading, being
 * from the toolkit of the task's other steps (`others`). A deprecated tool counts half, and so does
 * a tool that changes something when the clause is a question; a tool with no place for any of
 * the clause's values, when another has one, does not count.
 */
export function rankClause(index: ToolIndex, clause: Clause, others?: readonly string[]): ClauseScore[] {
  const words = rankTools(index, clause.tokens);
  const fits = index.tools.map((tool) => getPlaceableLiterals(index, tool, clause));
  const rarity = clause.literals.map((placed) => {
    const count = fits.filter((f) => f.has(placed)).length;
    return count === 0 ? 0 : Math.log(1 + index.tools.length / count);
  });
  // A switch the clause turns on or off ("italic", "without an image") is a value too.
  const switches = index.tools.map(
    (tool) => tool.params.filter((p) => p.type === 'bool' && readBoolean(clause, p) !== undefined).length,
  );
  const switching = switches.filter((n) => n > 0).length;
  const switchRarity = switching === 0 ? 0 : Math.log(1 + index.tools.length / switching);
  const verb = getLeadingWord(clause);
  // The action as one term: a Chinese verb is also its English words (读取 is `read`), so a tool
  // declared in English and one with a Chinese title meet it alike.
  const verbForms =
    verb === undefined ? [] : (getTerms(clause.tokens).find((t) => t.forms.includes(verb))?.forms ?? [verb]);
  const verbWeight = (tool: IndexedTool) => Math.max(0, ...verbForms.map((f) => tool.verbs.get(f) ?? 0));
  const verbIdf = Math.log(
    1 +
      index.tools.length /
        Math.max(1, index.tools.filter((t) => verbForms.some((f) => t.verbs.has(f))).length),
  );
  const question = QUESTION.test(clause.text);
  const isVerb = verb !== undefined && index.tools.some((t) => verbWeight(t) >= 1);
  const objects = clause.tokens.filter((t) => !t.extension && !verbForms.includes(t.token));
  const namesObject = index.tools.map((tool) =>
    objects.some(
      (t) =>
        tool.nameTokens.has(t.token) || tool.titleTokens.has(t.token) || tool.descriptionTokens.has(t.token),
    ),
  );
  const objectNamed =
    verb !== undefined && index.tools.some((t) => verbWeight(t) > 0 && namesObject[t.order]);
  // Only a tool with a place for as many of the clause's values as any other gets the toolkit
  // bonus: "Read /notes/people.txt" stays read_text_file in a task that also searches memory.
  // A city read as a time zone ("Paris") is also just a place: it zeroes no tool without a zone.
  const firm = (f: Map<PlacedLiteral, number>) => [...f.keys()].filter((l) => !l.literal.written).length;
  const mostPlaced = Math.max(0, ...fits.map(firm));
  // Items the clause gives for a tool's lists (a relation said whole, names after the items'
  // noun): values too, the rarer their place the more they say.
  const items = index.tools.map((tool) => countItemsRead(tool, clause));
  const itemHolders = items.filter((n) => n > 0).length;
  const itemRarity = itemHolders === 0 ? 0 : Math.log(1 + index.tools.length / itemHolders);
  const surface = new Set(getWords(clause.prose));
  const scored = words.map((score) => {
    const { tool } = score;
    const fit =
      clause.literals.reduce((sum, placed, i) => sum + (fits[tool.order].get(placed) ?? 0) * rarity[i], 0) +
      switches[tool.order] * switchRarity +
      items[tool.order] * itemRarity;
    let verbScore = 0;
    // Only a word some tool surely uses as its verb is read as the clause's action, and only for a
    // tool that also takes what the clause speaks of: one of its other words ("List the sheets":
    // the workbook tool, not list_directory), or — when no tool with that verb names any — all of
    // its values ("Open inventory.xlsx" is no open_nodes, which takes no file).
    // When the clause gives items some tool's lists hold ("Add entities 'Alice' and 'Bob'"), the
    // thing it acts on decides: a generic verb (add, record) weighs only for tools that hold them.
    if (
      verb &&
      isVerb &&
      verbWeight(tool) > 0 &&
      (items[tool.order] > 0 || itemHolders === 0) &&
      (namesObject[tool.order] || (!objectNamed && fits[tool.order].size === clause.literals.length))
    )
      verbScore = VERB_WEIGHT * verbWeight(tool) * verbIdf;
    // "Add entities 'Alice' and 'Bob'", "添加实体…": a word that adds something asks for the tool
    // that creates the items the clause gives, whatever that tool's own verb is called.
    else if (verb && ADDING_WORDS.has(verb) && items[tool.order] > 0) {
      const creates = [...tool.verbs].filter(([v, w]) => w >= 1 && CREATING_VERBS.has(v));
      if (creates.length > 0) verbScore = VERB_WEIGHT * Math.max(...creates.map(([v]) => index.idf(v)));
    }
    // The action word where the tool's name only uses it to describe ("Staged changes"): it
    // counts as a description word, not a name word.
    else if (verb && isVerb && verbForms.some((f) => tool.nameTokens.has(f) || tool.titleTokens.has(f)))
      verbScore = -verbIdf;
    let exact = 0;
    for (const word of surface) if (tool.surfaceWords.has(word)) exact += index.idf(stemWord(word));
    const coherence =
      others && others.length > 0 && fits[tool.order].size === mostPlaced
        ? (COHERENCE_WEIGHT * others.filter((key) => key !== '' && key === tool.sourceKey).length) /
          others.length
        : 0;
    const total =
      (score.toolLevel + 0.25 * score.paramLevel + verbScore + exact + VALUE_WEIGHT * fit + coherence) *
      (tool.deprecated ? 0.5 : 1) *
      // A question asks to look, not to change: "What does commit 9f8e7d6 change?" is git_show.
      (question && tool.sideEffect ? 0.5 : 1) *
      // A tool with a place for none of the values the clause gives, where others have one, is
      // not what it speaks of ("Open inventory.xlsx" is no open_nodes).
      (firm(fits[tool.order]) === 0 && items[tool.order] === 0 && mostPlaced > 0 ? 0 : 1);
    return { ...score, items: items[tool.order], total };
  });
  return scored.sort((a, b) => b.total - a.total || a.tool.order - b.tool.order);
}

/** The first word of a clause (a Chinese clause: its first two characters), where a request names its action. */
/** Whether every value of the clause has a place among the tool's parameters. */
function fitsTool(index: ToolIndex, tool: IndexedTool, clause: Clause): boolean {
  return getPlaceableLiterals(index, tool, clause).size === clause.literals.length;
}

/** Whether the clause starts with the action of some tool (its leading word is a tool's verb). */
function startsWithVerb(index: ToolIndex, clause: Clause): boolean {
  const verb = getLeadingWord(clause);
  return verb !== undefined && index.tools.some((tool) => tool.verbs.has(verb));
}

/** Two clauses read as one ("Show the size" + "permissions of ./package.json"). */
function mergeClauses(a: Clause, b: Clause): Clause {
  const offset = Math.max(0, ...a.tokens.map((t) => t.word), ...a.literals.map((l) => l.word)) + 2;
  return {
    text: `${a.text} and ${b.text}`,
    prose: `${a.prose} and ${b.prose}`,
    tokens: [...a.tokens, ...b.tokens.map((t) => ({ ...t, word: t.word + offset }))],
    literals: [...a.literals, ...b.literals.map((l) => ({ ...l, word: l.word + offset }))],
    soft: a.soft,
  };
}

/** A question ("What does commit 9f8e7d6 change?") names no action with its first word. */
const QUESTION =
  /^\s*(?:what|which|how|when|where|who|why|does|do|did|is|are|was|were|can|could|would|will|should)\b|[?？]\s*$/i;

function getLeadingWord(clause: Clause): string | undefined {
  if (QUESTION.test(clause.text)) return undefined;
  const first = clause.tokens
    .filter((t) => !t.extension && !t.translated)
    .reduce<(typeof clause.tokens)[number] | undefined>(
      (a, t) => (a === undefined || t.word < a.word ? t : a),
      undefined,
    );
  return first?.token;
}

/**
 * The clause's literals that have a place among the tool's parameters (each parameter once), and
 * how well: 1 for a parameter of its own or a field of a list of objects; ½ as the one item of a
 * list (one file read is read_text_file, not read_multiple_files).
 * A range counts for a tool that takes its two corners.
 */
function getPlaceableLiterals(
  index: ToolIndex,
  tool: IndexedTool,
  clause: Clause,
): Map<PlacedLiteral, number> {
  const placeable = new Map<PlacedLiteral, number>();
  const taken = new Set<string>();
  clause.literals.forEach((placed, i) => {
    if (placed.literal.kind === 'range' && getRangeCorners(tool)) {
      placeable.set(placed, 1);
      return;
    }
    const context = getContext(index, clause, i);
    let best: { param: IndexedParam; quality: number } | undefined;
    for (const param of tool.params) {
      if (!param.stringList && !param.fields && taken.has(param.name)) continue;
      let quality = 0;
      if (placeLiteral(index, placed, param, context) !== null) {
        quality = param.type === 'list' && clause.literals.length === 1 ? 0.5 : 1;
      } else if (isBareHost(placed.literal) && takesFullUrl(param)) {
        // "map docs.stripe.com": the site is the tool's URL, though only the person can complete it.
        quality = 1;
      } else if (
        (param.fields ?? []).some(
          (f) => getNamingScore(f, placed, context) > 0 && placeLiteral(index, placed, f, context) !== null,
        )
      ) {
        quality = 1;
      }
      if (quality > (best?.quality ?? 0)) best = { param, quality };
    }
    if (!best) return;
    placeable.set(placed, best.quality);
    taken.add(best.param.name);
  });
  return placeable;
}

// ---- refinements: a clause that only adds to the step before ----

/**
 * Whether `clause` refines the previous step instead of starting a new one. It does when it
 * names no other tool's action — only the previous tool, its parameters, or nothing — and what
 * it gives fits that step: values with a place among the parameters the step has not set yet
 * ("，超胞 3x3x3", ", sheet 'Orders'", "and put it at E2"), or a switch or option of it
 * ("，不优化晶胞", ". Do not relax the cell."). A clause that names another tool's action refines
 * only when it assigns a value with a copula ("提交信息为 'fix typo'": that says what the message
 * is, even though 信息 is also in 查看工作簿信息).
 */
function isRefinement(
  index: ToolIndex,
  previous: Group,
  clause: Clause,
  best: ClauseScore | undefined,
): boolean {
  const tool = previous.tool;
  const already = fillArguments(index, previous, []);
  const values = clause.literals.filter((l) => !l.literal.keepWords);
  if (best && best.tool !== tool && namesAction(index, best.tool, clause, tool)) {
    return (
      values.length > 0 && values.every((placed) => isAssignedToParam(index, tool, clause, placed, already))
    );
  }
  const again = best?.tool === tool && namesAction(index, tool, clause, undefined);
  const assigned =
    values.length > 0 && values.every((placed) => isAssignedToParam(index, tool, clause, placed, already));
  // "Copy the table called Orders, then copy the table called Items": a sentence that starts with
  // the same action again asks for it again (unless it only says what a value is).
  const verb = getLeadingWord(clause);
  if (again && !clause.soft && !assigned && verb !== undefined && tool.verbs.has(verb)) return false;
  if (values.length > 0) {
    const open = values.filter((placed) => fitsOpenParam(index, tool, clause, placed, already));
    // "Compute the phonons of A, then of B": a value for a parameter the step already has is a new step.
    return again ? open.length === values.length : open.length > 0 || !clause.soft;
  }
  const settings = getOptionSettings(tool, clause);
  if (settings.some((p) => p.name in already)) return false;
  return !again || settings.length > 0;
}

/**
 * Whether the clause names `tool`'s action: a word of its name or title, not counting words that
 * only name the parameter of the step before that a value of the clause goes to (", sheet
 * 'Orders'" sets the sheet of the step before, it does not ask for create_worksheet; "每 50 步保存
 * 一帧" sets the save interval; but "then its band structure" asks for the band structure).
 */
function namesAction(
  index: ToolIndex,
  tool: IndexedTool,
  clause: Clause,
  than: IndexedTool | undefined,
): boolean {
  const naming = new Set<string>();
  if (than) {
    // Options of the step before that the clause sets (", with an image": includeImage).
    for (const param of getOptionSettings(than, clause)) {
      for (const t of param.nameTokens) naming.add(t);
      for (const v of param.enum ?? []) if (typeof v === 'string') for (const t of tokenize(v)) naming.add(t);
    }
    clause.literals.forEach((placed, i) => {
      const context = getContext(index, clause, i);
      for (const param of than.params) {
        if (placeLiteral(index, placed, param, context) === null) continue;
        for (const t of param.nameTokens) naming.add(t);
        for (const v of param.enum ?? [])
          if (typeof v === 'string') for (const t of tokenize(v)) naming.add(t);
      }
    });
  }
  // The characters of a Chinese word whose English names such a parameter.
  const covered = new Set<number>();
  for (const t of clause.tokens) {
    if (!t.translated || !naming.has(t.token)) continue;
    for (let w = t.word - (t.span ?? 1) + 1; w <= t.word; w++) covered.add(w);
  }
  return clause.tokens.some(
    (t) =>
      !t.extension &&
      !naming.has(t.token) &&
      !(covered.has(t.word) && !t.translated) &&
      (tool.nameTokens.has(t.token) || tool.titleTokens.has(t.token)) &&
      index.idf(t.token) > 0,
  );
}
