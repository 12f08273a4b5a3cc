/**
 * Booleans and enum values named in words rather than given as values: "relax the cell" /
 * "不优化晶胞" for a switch, "NVT ensemble" / 折线图 for an enum.
 */
import { compileLinearPattern } from '../../tools/linear-pattern';
import { compact, escapeRegExp } from './accept';
import type { Clause } from './clauses';
import { ENUM_SYNONYMS } from './lexicon';
import { isCjk } from './text';
import type { IndexedParam } from './tool-index';
import type { Group } from './values';

// ---- booleans and enums named in words ----

/** How many words apart the words of a parameter's name may stand, in either order, and still
 * read as one phrase ("relax the cell", "晶胞也一起优化"). */
const PHRASE_SPAN = 5;
/** Words of a boolean's name that say nothing about what it switches ("include_images" → images). */
const GENERIC_BOOLEAN_WORDS = new Set('whether enabl flag should allow toggl option includ us'.split(' '));
/** English negation words (stems, and the `don` of "don't"). */
const NEGATORS = new Set(
  'not no don dont without never skip disabl avoid doesn didn won off fals exclud'.split(' '),
);
/** Words that say the thing a switch acts on stays as it is ("keep the cell fixed": relax_cell false). */
const KEPT_WORDS = new Set('fix frozen freez unchang constant keep fixed 固定 不变 保持'.split(' '));
/** Chinese negation words right before a phrase ("不优化晶胞", "无需…", "不要…"). */
const CHINESE_NEGATION = /(?:不要|不用|无需|不必|禁止|关闭|没有|不|别|勿|无)$/;

/** A boolean parameter named in a group's clauses (see `readBoolean`). */
export function findBoolean(group: Group, param: IndexedParam): boolean | undefined {
  for (const clause of group.clauses) {
    const value = readBoolean(clause, param);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * A boolean parameter named in a clause: "relax the cell" / "优化晶胞" → true, "do not relax the
 * cell" / "不优化晶胞" / "keeping the cell fixed" → false, not mentioned → undefined. The words of
 * the parameter's name (a Chinese phrase counts through its English words) must stand together;
 * else a run of three or more Chinese characters shared with the parameter's description.
 */
export function readBoolean(clause: Clause, param: IndexedParam): boolean | undefined {
  const keyTokens = [...param.nameTokens].filter((t) => !GENERIC_BOOLEAN_WORDS.has(t));
  if (keyTokens.length > 0) {
    const keys = clause.tokens.filter((t) => keyTokens.includes(t.token));
    // Where the words stand together, in either order ("Relax ./Si.cif … without relaxing the
    // cell": the second "relax"; "晶胞也一起优化": cell, then optimise).
    const together = keys.find((anchor) =>
      keyTokens.every((k) =>
        keys.some((t) => t.token === k && t.word >= anchor.word && t.word <= anchor.word + PHRASE_SPAN),
      ),
    );
    if (together) {
      const phrase = keys.filter((t) => t.word >= together.word && t.word <= together.word + PHRASE_SPAN);
      const negated =
        phrase.some((t) => t.negated) ||
        clause.tokens.some(
          (t) => t.word < together.word && t.word >= together.word - 3 && NEGATORS.has(t.token),
        );
      return !negated;
    }
    // "keeping the cell fixed": the object of the switch named with a word that says it stays.
    const object = keyTokens.slice(1);
    if (keyTokens.length >= 2 && object.every((k) => keys.some((t) => t.token === k))) {
      const at = Math.min(...keys.filter((t) => object.includes(t.token)).map((t) => t.word));
      if (clause.tokens.some((t) => KEPT_WORDS.has(t.token) && Math.abs(t.word - at) <= 3)) return false;
    }
  }
  const shared = findSharedChinese(clause.prose, param.description.replace(/是否/g, ' '));
  if (shared) return !CHINESE_NEGATION.test(clause.prose.slice(Math.max(0, shared.at - 2), shared.at));
  return undefined;
}

/** The longest run of 3+ Chinese characters that `text` shares with `reference`, and where. */
function findSharedChinese(text: string, reference: string): { at: number; length: number } | undefined {
  let best: { at: number; length: number } | undefined;
  for (let i = 0; i < text.length; i++) {
    if (!isCjk(text[i])) continue;
    for (let end = i + 3; end <= text.length && isCjk(text[end - 1]); end++) {
      if (!reference.includes(text.slice(i, end))) break;
      if (!best || end - i > best.length) best = { at: i, length: end - i };
    }
  }
  return best;
}

/** A parameter that holds one of a few named choices, by its name or by "one of". */
const CHOICE_PARAM = /(?:type|kind|mode|format|style|method|order|level)$/i;
/** Choices listed in parentheses: "Resource type to scale (deployment, replicaset, statefulset)". */
const LISTED_CHOICES = /\(([a-z][\w-]*(?:\s*(?:,|\bor\b|\|)\s*[a-z][\w-]*)+)\)/i;

/**
 * The choices a text parameter without an enum lists in its description, where its name or
 * description says it holds one of them: these are read like an enum's values.
 */
export function getDescribedChoices(param: IndexedParam): string[] | undefined {
  if (param.type !== 'str' || param.enum) return undefined;
  if (!CHOICE_PARAM.test(param.name) && !/\bone of\b/i.test(param.description)) return undefined;
  const listed = LISTED_CHOICES.exec(param.description);
  return listed ? listed[1].split(/\s*(?:,|\bor\b|\|)\s*/i) : undefined;
}

/** Words that say how much rather than what kind. */
const QUANTIFIERS = new Set(['all', 'none', 'any', 'some', 'each', 'every', 'both', 'half']);

/**
 * An enum value the clauses name: spelled out ("NVT ensemble", "rock salt"), or by a word that
 * stands for it ("averaged" → mean, 折线图 → line). The first clause that names one decides.
 */
export function findEnumValue(clauses: Clause[], values: unknown[]): unknown {
  for (const clause of clauses) {
    const prose = clause.text.toLowerCase();
    for (const value of values) {
      if (typeof value !== 'string' || value.length < 2) continue;
      const needle = value.toLowerCase();
      const at = prose.indexOf(needle);
      if (at !== -1) {
        const before = prose[at - 1] ?? ' ';
        const after = prose[at + needle.length] ?? ' ';
        const boundary = (c: string) => !/[a-z0-9_]/.test(c);
        // A quantifier inside a hyphenated compound is part of another word: "all-day" does not
        // say "all" (while "pie-chart" does say "pie").
        const compound =
          QUANTIFIERS.has(needle) &&
          ((before === '-' && /[a-z0-9]/.test(prose[at - 2] ?? ' ')) ||
            (after === '-' && /[a-z0-9]/.test(prose[at + needle.length + 1] ?? ' ')));
        if (isCjk(needle[0]) || (boundary(before) && boundary(after) && !compound)) return value;
      }
      // Spelled with spaces or hyphens ("rock salt", "zinc-blende").
      if (needle.length >= 6 && compact(prose).includes(compact(needle)) && !prose.includes(needle)) {
        // The value is the tool's, not ours: its characters are literals, and the check is
        // linear (a value such as "a------b" made a backtracking engine take exponential time).
        const spaced = compileLinearPattern(`\\b${[...needle].map(escapeRegExp).join('[\\s_-]?')}\\b`);
        if (spaced.ok && spaced.matcher.match(prose) === true) return value;
      }
    }
    for (const token of clause.tokens) {
      const meant = ENUM_SYNONYMS[token.token];
      if (!meant) continue;
      const value = values.find((v) => typeof v === 'string' && meant.includes(v.toLowerCase()));
      if (value !== undefined) return value;
    }
    for (const [word, meant] of Object.entries(ENUM_SYNONYMS)) {
      if (!isCjk(word[0]) || !clause.prose.includes(word)) continue;
      const value = values.find((v) => typeof v === 'string' && meant.includes(v.toLowerCase()));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}
