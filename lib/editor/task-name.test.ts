import { describe, expect, it } from 'vitest';
import { WORKFLOW_NAME_MAX } from '../workflow/name';
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

  it('keeps a long first sentence whole, with no ellipsis stored', () => {
    const name = getWorkflowNameFromTask(
      'Optimise the structure at https://example.org/structures/Cu_bulk.cif with the model https://example.org/models/dpa-2.4-7M.pt, then compute its phonons',
    );
    expect(name).toBe(
      'Optimise the structure at Cu_bulk.cif with the model dpa-2.4-7M.pt, then compute its phonons',
    );
  });

  it('fits a first sentence longer than the stored bound at a word boundary', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const name = getWorkflowNameFromTask(`${words}. Then stop.`);
    expect(name.length).toBeLessThanOrEqual(WORKFLOW_NAME_MAX);
    expect(name.length).toBeGreaterThan(WORKFLOW_NAME_MAX - 8);
    expect(words.startsWith(name)).toBe(true);
    expect(name).toMatch(/word\d+$/);
  });

  it('names a blank task "Untitled workflow"', () => {
    expect(getWorkflowNameFromTask('  \n ')).toBe('Untitled workflow');
  });
});
