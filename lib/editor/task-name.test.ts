import { describe, expect, it } from 'vitest';
import { getWorkflowNameFromTask } from './task-name';

describe('getWorkflowNameFromTask', () => {
  it('uses the first sentence without its full stop', () => {
    expect(getWorkflowNameFromTask('Relax copper. Then compute phonons.')).toBe('Relax copper');
  });

  it('does not end the sentence at a dot inside a URL or a version', () => {
    expect(getWorkflowNameFromTask('Read v2.4 of the file. Then stop')).toBe('Read v2.4 of the file');
  });

  it('shows a URL as its file name', () => {
    expect(getWorkflowNameFromTask('Read https://e.org/data/a.cif, then plot')).toBe('Read a.cif, then plot');
  });

  it('cuts a long task at a word boundary with an ellipsis', () => {
    const name = getWorkflowNameFromTask(
      'Optimise the structure at https://example.org/structures/Cu_bulk.cif with the model https://example.org/models/dpa-2.4-7M.pt, then compute its phonons',
    );
    expect(name).toBe('Optimise the structure at Cu_bulk.cif with the model…');
    expect(name.length).toBeLessThanOrEqual(60);
  });

  it('names a blank task "Untitled workflow"', () => {
    expect(getWorkflowNameFromTask('  \n ')).toBe('Untitled workflow');
  });
});
