/**
 * The design lives in the repository: code and docs cite `docs/design.md §n` (or `§n.m`), and
 * every such citation names a section that exists. Notes kept outside the repository are never
 * cited, and code says what it does rather than which issue, pass or seed it came from (git keeps
 * the history). The forbidden forms are spelt from parts here so this file is checked like every
 * other.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DESIGN_DOC = 'docs/design.md';
const CITATION = /docs\/design\.md §(\d+(?:\.\d+)?)/g;
const OUTSIDE_NOTES = new RegExp(
  ['DES' + 'IGN\\b', 'DES' + 'IGN §', 'STY' + 'LE\\.md', 'STY' + 'LE §', 'STACK-' + 'NOTES'].join('|'),
);
const CODE = /\.(?:[cm]?[jt]sx?)$/;
/** An issue's number, a numbered pass, a seed's number: where code came from, not what it does. */
const HISTORY_TAG = new RegExp(
  [
    '\\bissues? #?\\d+\\b',
    '\\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\\d+(?:st|nd|rd|th)) ' +
      'pass(?:es)?\\b',
    '\\bseeds? \\d{3}\\b',
  ].join('|'),
  'i',
);

/** Lines of `text` that tag code with its history. */
export function findHistoryTags(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => (HISTORY_TAG.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}
/**
 * An applied migration's text is frozen: its checksum is recorded in `_prisma_migrations`, and
 * lib/db/migrate.ts refuses to start on a database whose migration was edited afterwards.
 */
const FROZEN = /^prisma\/migrations\//;

/** The section numbers docs/design.md has, from its `## n.` and `### n.m` headings. */
export function getSectionNumbers(design: string): Set<string> {
  const numbers = new Set<string>();
  for (const match of design.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)) numbers.add(match[1]!);
  return numbers;
}

/** Citations of sections that do not exist, and citations of notes outside the repository. */
export function findBadReferences(file: string, text: string, sections: Set<string>): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const match of line.matchAll(CITATION)) {
      if (!sections.has(match[1]!)) found.push(`${where}: no section §${match[1]}`);
    }
    if (file !== DESIGN_DOC && OUTSIDE_NOTES.test(line)) found.push(`${where}: ${line.trim()}`);
  });
  return found;
}

function getTrackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !FROZEN.test(f));
}

function readTracked(file: string): string | undefined {
  try {
    return readFileSync(path.join(ROOT, file), 'utf8');
  } catch {
    return undefined; // deleted in the work tree but still tracked
  }
}

describe('references to the design', () => {
  const sections = getSectionNumbers(readFileSync(path.join(ROOT, DESIGN_DOC), 'utf8'));

  it('cite only sections docs/design.md has, and never notes outside the repository', () => {
    const bad = getTrackedFiles().flatMap((file) => {
      const text = readTracked(file);
      return text === undefined ? [] : findBadReferences(file, text, sections);
    });
    expect(bad, 'point these at a section of docs/design.md').toEqual([]);
  });

  it('reads section numbers from both heading levels', () => {
    const numbers = getSectionNumbers('# T\n\n## 2. Rules\n\n### 2.3 Values\n\n#### 2.3.1 no\n');
    expect([...numbers]).toEqual(['2', '2.3']);
  });

  it('flags a missing section and an outside note, and passes a good citation', () => {
    const known = new Set(['2', '2.3']);
    expect(findBadReferences('lib/a.ts', '// see docs/design.md §2.3', known)).toEqual([]);
    expect(findBadReferences('lib/a.ts', '// see docs/design.md §2.9', known)).toEqual([
      'lib/a.ts:1: no section §2.9',
    ]);
    const old = `// see ${'DES' + 'IGN'} §1`;
    expect(findBadReferences('lib/a.ts', old, known)).toHaveLength(1);
    expect(findBadReferences(DESIGN_DOC, old, known)).toEqual([]);
  });
});

describe('history tags', () => {
  it('are not in code: comments and test names say what the code does and why', () => {
    const tagged = getTrackedFiles()
      .filter((file) => CODE.test(file))
      .flatMap((file) => {
        const text = readTracked(file);
        return text === undefined ? [] : findHistoryTags(file, text);
      });
    expect(tagged, 'say what the code does; the history is in git').toEqual([]);
  });

  it('flags an issue number, a numbered pass and a seed number, and passes ordinary words', () => {
    const tag = (line: string) => findHistoryTags('lib/a.ts', line).length;
    expect(tag(`// measured in ${'iss' + 'ue'} 15`)).toBe(1);
    expect(tag(`// see the sixth ${'pa' + 'ss'}`)).toBe(1);
    expect(tag(`// as ${'se' + 'ed'} 001 lists`)).toBe(1);
    expect(tag('// every value passes; one issue per path; a random seed 42')).toBe(0);
  });
});
