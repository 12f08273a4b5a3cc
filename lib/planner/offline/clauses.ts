/**
 * Splitting a task into clauses — roughly one tool call each — in English and Chinese, with the
 * literal values found first so that punctuation inside them never splits a clause.
 */
import { findLiterals, type Literal } from './literals';
import { countWordPositions, stemWord, tokenizeWithPositions, type PositionedToken } from './text';

/** A literal and the index of the word it stands at in its clause. */
export interface PlacedLiteral {
  literal: Literal;
  word: number;
  /** The clause's text between the literal before (or the clause start) and this one. */
  before: string;
  /** The clause speaks of creating something (create, new, add, 新建…): see `holds.new`. */
  clauseCreates?: boolean;
}

export interface Clause {
  /** The clause as written (literals included). */
  text: string;
  /** The clause with every literal replaced by a space (for phrase and negation checks). */
  prose: string;
  tokens: PositionedToken[];
  literals: PlacedLiteral[];
  /** Joined to the clause before by a bare "and": a new step only if it names another tool. */
  soft: boolean;
  /** Follows a word that orders steps (then, next, 然后, 再, 并…): what comes before is its input
   * when it gives no value of its own (see wiring.ts). */
  sequenced?: boolean;
}

// English: sequencing words and sentence ends (a `.` followed by space). Chinese: 然后/接着/再/
// 并且/最后/随后/之后 and the full-width comma, full stop and semicolon. (A bare 并 is a soft
// separator, below.)
const SEPARATORS = new RegExp(
  [
    String.raw`\b(?:and then|and after that|after that|afterwards|and finally|finally|then|next|subsequently|followed by|and also|lastly)\b`,
    String.raw`;`,
    // A sentence end, but not the dots of "e.g." / "i.e." / "etc.".
    String.raw`(?<!\b(?:e\.g|i\.e|etc|vs))\.(?=\s|$)`,
    String.raw`\n+`,
    '然后|接着|随后|之后|并且|最后|其次|再',
    '[，。；！？]',
  ].join('|'),
  'gi',
);

/** "…commit the changes and push them", "build it, optimise it", "进行结构优化并优化晶胞": a bare
 * `and`, a comma or the connective 并 may start a new action; the planner decides by whether the
 * part names another tool. 并 inside a word (合并, 归并, 兼并, 吞并, 并行, 并发, 并列, 并非, 并不) is
 * not a connective. */
const SOFT_SEPARATOR = /\s+and\s+|,\s+|(?<![合归兼吞])并(?![且行发列非不])/i;

/** Words that say a clause creates something (stems, and what 新建/创建/添加 translate to). */
const CREATING = new Set(['cre', 'new', 'sum', 'build', 'generat', 'mkdir', 'init']);

const OPEN_MARK = '\uE000';
const CLOSE_MARK = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/** Split a task into clauses, each with its tokens and the literals it contains. */
export function splitClauses(task: string): Clause[] {
  const literals = findLiterals(task);
  let masked = '';
  let at = 0;
  literals.forEach((literal, index) => {
    masked += task.slice(at, literal.start) + OPEN_MARK + index + CLOSE_MARK;
    at = literal.end;
  });
  masked += task.slice(at);

  const clauses: Clause[] = [];
  // Separators are kept (odd places of the split) to know which ones order the steps.
  let sequenced = false;
  masked.split(new RegExp(`(${SEPARATORS.source})`, 'gi')).forEach((piece, k) => {
    if (k % 2 === 1) {
      sequenced ||= SEQUENCING.test(piece);
      return;
    }
    if (piece.trim() === '') return;
    const parts = piece.split(new RegExp(`(${SOFT_SEPARATOR.source})`, 'i'));
    for (let i = 0; i < parts.length; i += 2) {
      const clause = readClause(parts[i], literals, i > 0);
      if (i > 0 && parts[i - 1].trim() === '并') sequenced = true;
      if (clause.tokens.length === 0 && clause.literals.length === 0) continue;
      clauses.push(sequenced ? { ...clause, sequenced } : clause);
      sequenced = false;
    }
  });
  return clauses;
}

/** Separators that order steps, not just list them. */
const SEQUENCING = /[a-z]|然后|接着|随后|之后|并且|最后|其次|再/i;

function readClause(piece: string, literals: Literal[], soft: boolean): Clause {
  const tokens: PositionedToken[] = [];
  const placed: PlacedLiteral[] = [];
  let word = 0;
  let text = '';
  let prose = '';
  let last = 0;
  const addProse = (segment: string) => {
    for (const t of tokenizeWithPositions(segment)) tokens.push({ ...t, word: word + t.word });
    word += countWordPositions(segment);
    text += segment;
    prose += segment;
  };
  for (const m of piece.matchAll(PLACEHOLDER)) {
    const before = piece.slice(last, m.index);
    addProse(before);
    const literal = literals[Number(m[1])];
    placed.push({ literal, word, before });
    // A file's extension says what it holds (`.xlsx` → sheet, `.cif` → cif): a hint for the
    // parameters it fits (a tool's own words decide which tool).
    const extension =
      literal.kind === 'path' || literal.kind === 'url'
        ? /\.([A-Za-z][A-Za-z0-9]{0,7})$/.exec(String(literal.value))
        : null;
    if (extension) tokens.push({ token: stemWord(extension[1].toLowerCase()), word, extension: true });
    // A Latin word in Chinese text, a Chinese material name: a value, and words of the sentence too.
    // A city read as a time zone keeps its own words ("Tokyo", not "asia").
    const words = literal.written ?? String(literal.value);
    if (literal.keepWords) for (const t of tokenizeWithPositions(words)) tokens.push({ ...t, word });
    word++;
    text += literal.written ?? (typeof literal.value === 'string' ? literal.value : String(literal.value));
    prose += ' ';
    last = m.index + m[0].length;
  }
  addProse(piece.slice(last));
  if (tokens.some((t) => CREATING.has(t.token))) for (const p of placed) p.clauseCreates = true;
  return { text: text.trim(), prose: prose.trim(), tokens, literals: placed, soft };
}
