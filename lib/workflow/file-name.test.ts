import { describe, expect, it } from 'vitest';
import { getExportFileName } from './file-name';

describe('getExportFileName', () => {
  it('turns a workflow name into a file name: symbols dropped, accents stripped, spaces as dashes', () => {
    expect(getExportFileName('Relax Cu & phonons (v2)')).toBe('Relax-Cu-phonons-v2.toolflow.json');
    expect(getExportFileName('Ångström study')).toBe('Angstrom-study.toolflow.json');
  });

  it('never gives a run of dots, even from a name cut off with an ellipsis', () => {
    expect(getExportFileName('Optimize with the model https://example.org/dpa.pt…')).toBe(
      'Optimize-with-the-model-httpsexample.orgdpa.pt.toolflow.json',
    );
    expect(getExportFileName('a . . b -- c...')).toBe('a.b-c.toolflow.json');
    expect(getExportFileName('...hidden')).toBe('hidden.toolflow.json');
  });

  it('keeps the slug to 80 characters without ending it on a dot or a dash', () => {
    const name = getExportFileName(`${'x'.repeat(79)} y`);
    expect(name).toBe(`${'x'.repeat(79)}.toolflow.json`);
  });

  it('never gives an empty name', () => {
    expect(getExportFileName('铜的声子')).toBe('workflow.toolflow.json');
    expect(getExportFileName('  ', '.json')).toBe('workflow.json');
    expect(getExportFileName('…')).toBe('workflow.toolflow.json');
  });
});
