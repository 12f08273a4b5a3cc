import { describe, expect, it } from 'vitest';
import { fitName, getCopyName, WORKFLOW_NAME_MAX } from './name';

describe('fitName', () => {
  it('keeps a name within the bound whole, spaces made single', () => {
    expect(fitName('  Relax   copper\nthen phonons ')).toBe('Relax copper then phonons');
  });

  it('cuts a longer name at the last space, without an ellipsis or a trailing comma', () => {
    expect(fitName('alpha beta, gamma delta', 17)).toBe('alpha beta');
    expect(fitName('alpha beta gamma', 12)).toBe('alpha beta');
  });

  it('cuts where the bound falls when no space is in the second half', () => {
    expect(fitName('a'.repeat(WORKFLOW_NAME_MAX + 20))).toBe('a'.repeat(WORKFLOW_NAME_MAX));
  });
});

describe('getCopyName', () => {
  it('prefixes "Copy of" and stays within the bound', () => {
    expect(getCopyName('Relax copper')).toBe('Copy of Relax copper');
    const long = getCopyName('word '.repeat(60).trim());
    expect(long.length).toBeLessThanOrEqual(WORKFLOW_NAME_MAX);
    expect(long.startsWith('Copy of word word')).toBe(true);
  });
});
