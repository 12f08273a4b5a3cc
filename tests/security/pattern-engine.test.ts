/**
 * Every schema pattern the app evaluates runs on the linear engine (lib/tools/linear-pattern.ts):
 * each Ajv the app builds is given it as `code.regExp`, and the form library's default validator
 * (which brings its own Ajv) is never used. A source scan, so a new validator cannot forget it;
 * tests/security/patterns.test.ts shows the effect through the API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Product source files: what runs in the app, the CLI and the scripts, without tests or fixtures. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // The scripted model server checks requests against OpenAI's own schemas (test tooling).
      if (['node_modules', 'generated', '__fixtures__', 'testing'].includes(entry.name)) return [];
      return sourceFiles(rel);
    }
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.|\.spec\./.test(entry.name) ? [rel] : [];
  });
}

const files = ['app', 'components', 'lib', 'bin'].flatMap(sourceFiles);
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('schema patterns and the linear engine', () => {
  it('scans the app', () => {
    expect(files).toContain('lib/tools/schema-validator.ts');
    expect(files).toContain('components/inspector/param-form-field.tsx');
  });

  it('gives every Ajv the app builds the linear engine', () => {
    const builders = files.filter((f) => /new Ajv(2019|2020)?\(|customizeValidator\(/.test(read(f)));
    expect(builders.sort()).toEqual([
      'components/inspector/param-form-field.tsx',
      'lib/http/body.ts',
      'lib/tools/schema-validator.ts',
    ]);
    for (const file of builders) expect(read(file), file).toMatch(/regExp: linearRegExp/);
  });

  it("never uses the form library's default validator, whose Ajv backtracks", () => {
    const defaults = files.filter((f) => /import \w+ from '@rjsf\/validator-ajv8'/.test(read(f)));
    expect(defaults).toEqual([]);
  });
});
