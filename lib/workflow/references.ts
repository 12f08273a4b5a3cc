/**
 * Step references: a call wires one step to another by putting `"{{step_2.result}}"`
 * (`{{<step id>.<output>}}`) in an argument (docs/design.md §5.1). Only a whole-value reference
 * becomes an edge; one inside a longer value is kept as text and reported.
 */
import { isJsonObject } from '../tools/json-schema';
import type { XY } from './types';

/** A `{{<step id>.<output>}}` reference to another step's output. */
export interface StepReference {
  step: string;
  output: string;
}

const WHOLE_REFERENCE = /^\s*\{\{\s*([^{}\s.]+)\.([^{}\s]+?)\s*\}\}\s*$/;
const ANY_REFERENCE = /\{\{\s*([^{}\s.]+)\.([^{}\s]+?)\s*\}\}/g;

/** The reference a value is, when the whole value is one `{{step.output}}` string. */
export function parseReference(value: unknown): StepReference | undefined {
  if (typeof value !== 'string' || value.length < 7) return undefined;
  const match = WHOLE_REFERENCE.exec(value);
  return match ? { step: match[1], output: match[2] } : undefined;
}

/**
 * Every `{{step.output}}` reference anywhere in a JSON value (inside longer strings, arrays and
 * objects too), in reading order. Only a whole-value reference becomes an edge; the others are
 * worth a warning.
 */
export function getReferences(value: unknown): StepReference[] {
  const found: StepReference[] = [];
  collectReferences(value, found);
  return found;
}

function collectReferences(value: unknown, into: StepReference[]): void {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return;
    for (const match of value.matchAll(ANY_REFERENCE)) into.push({ step: match[1], output: match[2] });
  } else if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) collectReferences(value[key], into);
  }
}

const GRID_X = 320;
const GRID_Y = 240;

/** Where the i-th node sits before layout: a left-to-right, top-to-bottom grid. */
export function getGridPosition(index: number, columns = 4): XY {
  return { x: (index % columns) * GRID_X, y: Math.floor(index / columns) * GRID_Y };
}
