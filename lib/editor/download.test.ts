import { describe, expect, it } from 'vitest';
import { getDownloadName } from './download';

describe('getDownloadName', () => {
  it('turns a workflow name into the file name the server export uses', () => {
    expect(getDownloadName('Relax Cu & phonons (v2)')).toBe('Relax-Cu-phonons-v2.toolflow.json');
    expect(getDownloadName('Ångström study')).toBe('Angstrom-study.toolflow.json');
  });

  it('never gives an empty name', () => {
    expect(getDownloadName('铜的声子')).toBe('workflow.toolflow.json');
    expect(getDownloadName('  ', '.json')).toBe('workflow.json');
  });
});
