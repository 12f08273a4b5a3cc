import { describe, expect, it } from 'vitest';
import { splitClauses } from './clauses';
import { findLiterals } from './literals';
import { stemWord, tokenize, tokenizeWithPositions } from './text';

describe('stemWord', () => {
  it('folds spellings and forms of one word together', () => {
    for (const word of ['optimise', 'optimize', 'optimization', 'optimisation', 'optimized', 'optimizing'])
      expect(stemWord(word)).toBe('optim');
    for (const word of ['compute', 'computing', 'computation', 'calculate', 'calculation'])
      expect(stemWord(word)).toBe('calcul');
    expect(stemWord('phonons')).toBe(stemWord('phonon'));
    expect(stemWord('structures')).toBe(stemWord('structure'));
    expect(stemWord('committing')).toBe('commit');
    expect(stemWord('class')).toBe(stemWord('classes'));
  });
});

describe('tokenize', () => {
  it('splits snake_case and camelCase and drops stop words', () => {
    expect(tokenize('calculate_band_structure of theBandGap')).toEqual([
      'calcul',
      'band',
      'structur',
      'band',
      'gap',
    ]);
  });

  it('turns Chinese runs into character bigrams', () => {
    expect(tokenize('计算声子谱', { translate: false })).toEqual(['计算', '算声', '声子', '子谱']);
    expect(tokenize('是')).toEqual(['是']);
  });

  it('adds the English words of the tool vocabulary after the bigrams, once each', () => {
    expect(tokenize('计算声子谱')).toEqual(['计算', '算声', '声子', '子谱', 'calcul', 'phonon']);
    // 删除 is 'delete remove', and remove folds to delete: one word, once.
    expect(tokenize('删除实体')).toEqual(['删除', '除实', '实体', 'delet', 'entity']);
  });

  it('marks a translated word right after a Chinese negation, at the end of the word', () => {
    const tokens = tokenizeWithPositions('不优化晶胞');
    expect(tokens.filter((t) => t.translated)).toEqual([
      { token: 'optim', word: 2, translated: true, span: 2, negated: true },
      { token: 'cell', word: 4, translated: true, span: 2 },
    ]);
  });

  it('drops bigrams across the particle 的, which only echo grammar', () => {
    expect(tokenize('暂存的改动', { translate: false })).toEqual(['暂存', '改动']);
  });
});

describe('findLiterals', () => {
  it('finds URLs, paths, quoted strings, numbers and identifiers without overlaps', () => {
    const found = findLiterals(
      "Use https://x.org/a.cif, ./m.pt and 'my name' with 0.05 and 1e-3 for mp-149 in data/in.xlsx.",
    );
    expect(found.map((l) => [l.kind, l.value])).toEqual([
      ['url', 'https://x.org/a.cif'],
      ['path', './m.pt'],
      ['string', 'my name'],
      ['number', 0.05],
      ['number', 0.001],
      ['identifier', 'mp-149'],
      ['path', 'data/in.xlsx'],
    ]);
  });

  it('reads a quoted URL as a URL and ignores apostrophes in words', () => {
    expect(findLiterals(`don't use "https://a.b/c" ok`).map((l) => [l.kind, l.value])).toEqual([
      ['url', 'https://a.b/c'],
    ]);
  });

  it('stops a URL at Chinese text and punctuation', () => {
    expect(findLiterals('下载https://x.org/a.cif进行优化，然后').map((l) => l.value)).toEqual([
      'https://x.org/a.cif',
    ]);
  });
});

describe('splitClauses', () => {
  it('splits at sequencing words and sentence ends but not inside literals', () => {
    const clauses = splitClauses(
      'Optimise https://x.org/a.b.cif. Then compute phonons; finally plot, e.g. a band.',
    );
    expect(clauses.map((c) => [c.text, c.soft])).toEqual([
      ['Optimise https://x.org/a.b.cif', false],
      ['compute phonons', false],
      ['plot', false],
      ['e.g. a band', true],
    ]);
  });

  it('splits Chinese at 然后/再/最后 and full-width punctuation', () => {
    expect(splitClauses('优化结构，然后计算声子谱再计算能带。最后画图').map((c) => c.text)).toEqual([
      '优化结构',
      '计算声子谱',
      '计算能带',
      '画图',
    ]);
  });

  it('marks clauses joined by a bare "and" or a comma as soft', () => {
    expect(splitClauses('commit and push, tag').map((c) => [c.text, c.soft])).toEqual([
      ['commit', false],
      ['push', true],
      ['tag', true],
    ]);
  });

  it('records where each literal stands among the words', () => {
    const [clause] = splitClauses('structure at ./a.cif with model ./m.pt');
    expect(clause.literals.map((l) => [l.literal.value, l.word])).toEqual([
      ['./a.cif', 2],
      ['./m.pt', 5],
    ]);
  });
});
