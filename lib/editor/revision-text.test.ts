import { describe, expect, it } from 'vitest';
import { describeReason, describeRevision, describeVersions, type RevisionEntry } from './revision-text';

const entry = (over: Partial<RevisionEntry>): RevisionEntry => ({
  version: 1,
  firstVersion: 1,
  name: 'Relax copper',
  label: null,
  reason: 'save',
  task: null,
  ...over,
});

describe('describeReason', () => {
  it('says what the first version was planned from, or that it was created empty', () => {
    expect(describeReason({ reason: 'create', task: '  Relax copper, then phonons ' })).toBe(
      'Planned from: Relax copper, then phonons',
    );
    expect(describeReason({ reason: 'create', task: '' })).toBe('Created');
    expect(describeReason({ reason: 'create', task: null })).toBe('Created');
  });

  it('names every other kind of entry', () => {
    const reasons = ['save', 'plan', 'resolve', 'restore:12', 'import', 'fork', 'duplicate'];
    expect(reasons.map((reason) => describeReason({ reason, task: null }))).toEqual([
      'Autosaved',
      'Plan applied',
      'Kept through a conflict',
      'Restored from version 12',
      'Imported',
      'Forked from a shared link',
      'Duplicated from another workflow',
    ]);
  });
});

describe('describeVersions', () => {
  it('gives the range an autosave entry stands for', () => {
    expect(describeVersions({ version: 7, firstVersion: 3 })).toBe('versions 3–7');
    expect(describeVersions({ version: 7, firstVersion: 7 })).toBe('version 7');
  });
});

describe('describeRevision', () => {
  it('puts a given name first and says when the workflow was renamed since the entry before', () => {
    expect(
      describeRevision(
        entry({ label: 'Before tuning', name: 'Copper phonons' }),
        entry({ name: 'Relax copper' }),
      ),
    ).toEqual(['Named “Before tuning”', 'Autosaved', 'Renamed “Copper phonons”']);
    expect(describeRevision(entry({}), entry({}))).toEqual(['Autosaved']);
    expect(describeRevision(entry({ reason: 'create', task: 'Relax copper' }))).toEqual([
      'Planned from: Relax copper',
    ]);
  });
});
