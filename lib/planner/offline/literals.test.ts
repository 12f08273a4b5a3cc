import { describe, expect, it } from 'vitest';
import { findLiterals, isChemicalFormula } from './literals';

const kinds = (text: string) =>
  findLiterals(text).map((l) => (l.unit ? [l.kind, l.value, l.unit] : [l.kind, l.value]));

describe('findLiterals', () => {
  it('reads an SQL statement as one value, to the end of the sentence or the next "then"', () => {
    expect(kinds("count them with SELECT COUNT(*) FROM orders WHERE name = 'Bob', then stop")).toEqual([
      ['sql', "SELECT COUNT(*) FROM orders WHERE name = 'Bob'"],
    ]);
    expect(kinds('建表 CREATE TABLE t (id INTEGER, name TEXT)，然后查询')).toEqual([
      ['sql', 'CREATE TABLE t (id INTEGER, name TEXT)'],
    ]);
    expect(kinds('Select the best one')).toEqual([]);
  });

  it('reads two decimals joined by a bare comma as one point, and keeps thousands and spaced pairs', () => {
    expect(kinds('查询 39.912078,116.464303 周边 1,000 米')).toEqual([
      ['coordinates', '39.912078,116.464303'],
      ['number', 1000, '米'],
    ]);
    expect(kinds('at 36.5785, -118.2923')).toEqual([
      ['number', 36.5785],
      ['number', -118.2923],
    ]);
  });

  it('reads a version tag and a wildcard pattern, not a product of cells', () => {
    expect(kinds('diff against v1.2.0, find *.test.ts and report-*.csv, then =B2*C2')).toEqual([
      ['identifier', 'v1.2.0'],
      ['glob', '*.test.ts'],
      ['glob', 'report-*.csv'],
      ['formula', '=B2*C2'],
    ]);
  });

  it('reads a JSON array as one list, the strings in it not values of their own', () => {
    expect(kinds('write [["Item","Cost"],["Rent",1200]] at A1')).toEqual([
      [
        'json',
        [
          ['Item', 'Cost'],
          ['Rent', 1200],
        ],
      ],
      ['cell', 'A1'],
    ]);
  });

  it('reads cell references and ranges, and two corners joined by "to" or 到 as one range', () => {
    expect(kinds('Chart A1:B3 at E2, then read cells A1 to D20 and B2 到 F40')).toEqual([
      ['range', 'A1:B3'],
      ['cell', 'E2'],
      ['range', 'A1:D20'],
      ['range', 'B2:F40'],
    ]);
  });

  it('keeps a quoted range a range and a quoted sheet name that looks like a cell a string', () => {
    expect(kinds("sheet 'Q1', range 'A1:B10'")).toEqual([
      ['string', 'Q1'],
      ['range', 'A1:B10'],
    ]);
  });

  it('reads a spreadsheet formula, quoted or not, without taking "a = 5.64" for one', () => {
    expect(kinds('写入公式 =AVERAGE(C2:C9)')).toEqual([['formula', '=AVERAGE(C2:C9)']]);
    expect(kinds("apply '=SUM(B2:B10)'")).toEqual([['formula', '=SUM(B2:B10)']]);
    expect(kinds('a = 5.64')).toEqual([['number', 5.64]]);
  });

  it('reads chemical formulas and element symbols, not acronyms or words', () => {
    expect(kinds('Build Si, NaCl, Fe2O3, GaAs and H2O; In the CIF use NPT with DPA and PBE')).toEqual([
      ['chemical', 'Si'],
      ['chemical', 'NaCl'],
      ['chemical', 'Fe2O3'],
      ['chemical', 'GaAs'],
      ['chemical', 'H2O'],
    ]);
  });

  it('reads Chinese material names as formulas (石墨烯 → C), not a character inside another word', () => {
    expect(kinds('构建石墨烯的结构')).toEqual([['chemical', 'C']]);
    expect(kinds('fcc 铜超胞')).toEqual([
      ['name', 'fcc'],
      ['chemical', 'Cu'],
    ]);
    expect(kinds('金刚石结构的金属')).toEqual([]);
  });

  it('keeps a number with its unit, in English and Chinese', () => {
    expect(kinds('温度 300 K，压力为 2 GPa，步长 0.5 fs，for 30 seconds, 5000 steps')).toEqual([
      ['number', 300, 'K'],
      ['number', 2, 'GPa'],
      ['number', 0.5, 'fs'],
      ['number', 30, 'seconds'],
      ['number', 5000],
    ]);
  });

  it('reads dates, 2×2×2 vectors and bracketed lists', () => {
    expect(kinds('since 2024-01-01, a 2×2×2 cell, 4x4x4 mesh and range [0.9, 1.1]')).toEqual([
      ['date', '2024-01-01'],
      ['vector', [2, 2, 2]],
      ['vector', [4, 4, 4]],
      ['vector', [0.9, 1.1]],
    ]);
  });

  it('reads a name after "called" or 叫, and a Latin word among Chinese characters', () => {
    expect(kinds('add a worksheet called Summary')).toEqual([['name', 'Summary']]);
    expect(kinds('在 ./budget.xlsx 的 Summary 表里')).toEqual([
      ['path', './budget.xlsx'],
      ['name', 'Summary'],
    ]);
  });

  it('reads slash-joined names, commit hashes and capital-letter codes as identifiers, not the ratio c/a', () => {
    expect(kinds('against origin/main, commit 9f8e7d6, path GMKGALHA, c/a 2.7')).toEqual([
      ['identifier', 'origin/main'],
      ['identifier', '9f8e7d6'],
      ['identifier', 'GMKGALHA'],
      ['number', 2.7],
    ]);
  });

  it('reads paths with Chinese names when they start like a path', () => {
    expect(kinds('读取 ./成绩.xlsx 中的数据')).toEqual([['path', './成绩.xlsx']]);
  });
});

describe('isChemicalFormula', () => {
  it('accepts element symbols with counts, and refuses colours, acronyms and words', () => {
    for (const word of ['Si', 'Cu', 'NaCl', 'Fe2O3', 'TiO2', 'CO2', 'SiC', 'LiCoO2'])
      expect(isChemicalFormula(word), word).toBe(true);
    for (const word of ['FFFF00', 'CIF', 'NPT', 'NVT', 'In', 'As', 'No', 'Bob', 'I', 'Xyz'])
      expect(isChemicalFormula(word), word).toBe(false);
  });
});
