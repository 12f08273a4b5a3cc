/**
 * Units of the numbers people write in tasks ("300 K", "压力为 2 GPa", "0.5 fs", "30 seconds")
 * and of the parameters tools declare ("Target pressure in bar"): a number goes only to a
 * parameter of its dimension, converted to the unit the parameter names — 2 GPa is 20000 for a
 * pressure in bar, and never 2.
 */

export type Dimension = 'temperature' | 'pressure' | 'time' | 'energy' | 'length';

interface Unit {
  dimension: Dimension;
  /** Value in the dimension's base unit = value × factor + offset (bases: K, bar, fs, eV, Å). */
  factor: number;
  offset?: number;
}

/** Units as written after a number (case matters: `K` is kelvin, `k` is not). */
const UNITS: Record<string, Unit> = {
  K: { dimension: 'temperature', factor: 1 },
  kelvin: { dimension: 'temperature', factor: 1 },
  开: { dimension: 'temperature', factor: 1 },
  开尔文: { dimension: 'temperature', factor: 1 },
  '°C': { dimension: 'temperature', factor: 1, offset: 273.15 },
  '℃': { dimension: 'temperature', factor: 1, offset: 273.15 },
  摄氏度: { dimension: 'temperature', factor: 1, offset: 273.15 },
  Pa: { dimension: 'pressure', factor: 1e-5 },
  kPa: { dimension: 'pressure', factor: 1e-2 },
  MPa: { dimension: 'pressure', factor: 10 },
  GPa: { dimension: 'pressure', factor: 1e4 },
  bar: { dimension: 'pressure', factor: 1 },
  bars: { dimension: 'pressure', factor: 1 },
  kbar: { dimension: 'pressure', factor: 1e3 },
  atm: { dimension: 'pressure', factor: 1.01325 },
  fs: { dimension: 'time', factor: 1 },
  飞秒: { dimension: 'time', factor: 1 },
  ps: { dimension: 'time', factor: 1e3 },
  皮秒: { dimension: 'time', factor: 1e3 },
  ns: { dimension: 'time', factor: 1e6 },
  纳秒: { dimension: 'time', factor: 1e6 },
  ms: { dimension: 'time', factor: 1e12 },
  毫秒: { dimension: 'time', factor: 1e12 },
  s: { dimension: 'time', factor: 1e15 },
  sec: { dimension: 'time', factor: 1e15 },
  secs: { dimension: 'time', factor: 1e15 },
  second: { dimension: 'time', factor: 1e15 },
  seconds: { dimension: 'time', factor: 1e15 },
  秒: { dimension: 'time', factor: 1e15 },
  秒钟: { dimension: 'time', factor: 1e15 },
  min: { dimension: 'time', factor: 6e16 },
  mins: { dimension: 'time', factor: 6e16 },
  minute: { dimension: 'time', factor: 6e16 },
  minutes: { dimension: 'time', factor: 6e16 },
  分钟: { dimension: 'time', factor: 6e16 },
  eV: { dimension: 'energy', factor: 1 },
  meV: { dimension: 'energy', factor: 1e-3 },
  Ry: { dimension: 'energy', factor: 13.605693122994 },
  Ha: { dimension: 'energy', factor: 27.211386245988 },
  Å: { dimension: 'length', factor: 1 },
  Ang: { dimension: 'length', factor: 1 },
  angstrom: { dimension: 'length', factor: 1 },
  angstroms: { dimension: 'length', factor: 1 },
  埃: { dimension: 'length', factor: 1 },
  nm: { dimension: 'length', factor: 10 },
  pm: { dimension: 'length', factor: 1e-2 },
  bohr: { dimension: 'length', factor: 0.529177210903 },
  m: { dimension: 'length', factor: 1e10 },
  meters: { dimension: 'length', factor: 1e10 },
  metres: { dimension: 'length', factor: 1e10 },
  米: { dimension: 'length', factor: 1e10 },
  km: { dimension: 'length', factor: 1e13 },
  公里: { dimension: 'length', factor: 1e13 },
  千米: { dimension: 'length', factor: 1e13 },
};

/** A unit right after a number: longest first, then not followed by a letter. */
export const UNIT_PATTERN = new RegExp(
  `^[ \\t]?(${Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![A-Za-z\\u00c0-\\u024f])`,
);

/** How a parameter's description names its unit ("in bar", "in kelvin", "ångström³" is no length). */
const DESCRIBED_UNITS: [RegExp, string][] = [
  [/\bkelvin\b|\(K\)|\bin K\b/i, 'K'],
  [/°C|celsius/i, '°C'],
  [/\bGPa\b/, 'GPa'],
  [/\bMPa\b/, 'MPa'],
  [/\bkPa\b/, 'kPa'],
  [/\bkbar\b/, 'kbar'],
  [/\bbars?\b/, 'bar'],
  [/\batm\b/, 'atm'],
  [/\bpascals?\b|\bPa\b/, 'Pa'],
  [/femtoseconds?|\bfs\b/i, 'fs'],
  [/picoseconds?|\bps\b/i, 'ps'],
  [/nanoseconds?|\bns\b/i, 'ns'],
  [/milliseconds?|\bms\b/, 'ms'],
  [/\bseconds?\b/i, 's'],
  [/\bminutes?\b/i, 'min'],
  [/\bmeV\b/, 'meV'],
  [/\beV\b/, 'eV'],
  // 1/ångström is an inverse length, ångström³ a volume: neither takes a length.
  [/(?<!1\/)(?:ångström|angstrom|Å)(?![³²^\dA-Za-zöå])/i, 'Å'],
  [/\bnm\b|nanomet(?:er|re)s?/i, 'nm'],
  [/\bkilomet(?:er|re)s?\b|\bkm\b|公里|千米/i, 'km'],
  [/\bmet(?:er|re)s?\b|(?<![千毫厘纳])米/i, 'm'],
];

/** The unit a parameter's description gives, if any. */
export function getDescribedUnit(description: string): string | undefined {
  for (const [pattern, unit] of DESCRIBED_UNITS) if (pattern.test(description)) return unit;
  return undefined;
}

export function getDimension(unit: string): Dimension | undefined {
  return UNITS[unit]?.dimension;
}

/** Words that say which dimension a parameter measures when its description names no unit. */
const DIMENSION_WORDS: Record<Dimension, RegExp> = {
  temperature: /temperatur/i,
  pressure: /pressur/i,
  time: /\b(?:time|duration|timeout|interval|delay|seconds?)\b/i,
  energy: /energ|cutoff/i,
  length: /length|distance|displacement|lattice constant|radius/i,
};

/** The dimension a parameter measures: from the unit it names, else from its words. */
export function getParamDimension(name: string, description: string): Dimension | undefined {
  const unit = getDescribedUnit(description);
  if (unit) return getDimension(unit);
  const text = `${name.replace(/[_-]/g, ' ')} ${description}`;
  for (const [dimension, pattern] of Object.entries(DIMENSION_WORDS))
    if (pattern.test(text)) return dimension as Dimension;
  return undefined;
}

/**
 * `value` in `from` expressed in `to` (both units of one dimension), rounded to 12 significant
 * digits so 2 GPa is exactly 20000 bar; undefined when the dimensions differ.
 */
export function convertUnit(value: number, from: string, to: string): number | undefined {
  const a = UNITS[from];
  const b = UNITS[to];
  if (!a || !b || a.dimension !== b.dimension) return undefined;
  const base = value * a.factor + (a.offset ?? 0);
  return Number(((base - (b.offset ?? 0)) / b.factor).toPrecision(12));
}
