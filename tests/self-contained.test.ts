/**
 * A clone of the repository is all a user has: no tracked file (documentation aside) may read
 * the `shared` folder of reading material that sits beside the developers' checkout, one level
 * up. The examples below spell that path from parts, so this file holds no such read itself and
 * is checked like every other.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getFixturePath, readFixtureJson } from './fixtures/index';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CODE = /\.(?:[cm]?[jt]sx?)$/;
/** Folder and upper-case document names of the shared folder beside the checkout that nothing tracked may name. */
const SHARED_NAMES = /(?:\.\.\/)+shared\/(?:fixtures|spec|seeds|hooks|[A-Z][A-Z-]*)\b/;
const RELATIVE_SHARED = /(?:\.\.\/)+shared(?=[/'"`]|$)/g;

/** Where a tracked file reaches out of the repository for `shared`, one line per place. */
export function findSharedReads(file: string, text: string, root = ROOT): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (SHARED_NAMES.test(line)) {
      found.push(`${where}: ${line.trim()}`);
      return;
    }
    if (!CODE.test(file)) return;
    for (const match of line.matchAll(RELATIVE_SHARED)) {
      const target = path.resolve(root, path.dirname(file), match[0]);
      if (path.relative(root, target).startsWith('..')) found.push(`${where}: ${line.trim()}`);
    }
  });
  return found;
}

/** `..`, to spell example paths that leave the repository without writing one here. */
const UP = '..';

function getTrackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !f.endsWith('.md') && !f.startsWith('docs/'));
}

describe('the repository is self-contained', () => {
  it('has no tracked file outside the docs that reads the shared folder beside the checkout', () => {
    const reads = getTrackedFiles().flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), 'utf8');
      } catch {
        return []; // deleted in the work tree but still tracked
      }
      return findSharedReads(file, text);
    });
    expect(reads, 'copy what these need into the repository (tests/fixtures)').toEqual([]);
  });

  it('flags a read of the shared folder that leaves the repository, in code and in scripts', () => {
    expect(
      findSharedReads(
        'lib/x/a.test.ts',
        `new URL('${UP}/${UP}/${UP}/shared/fixtures/a.json', import.meta.url)`,
      ),
    ).toHaveLength(1);
    expect(
      findSharedReads('lib/x/a.test.ts', `import spec from '${UP}/${UP}/${UP}/shared/other/a.json';`),
    ).toHaveLength(1);
    expect(findSharedReads('.ci/run', `cat ${UP}/shared/spec/openai/x.json`)).toHaveLength(1);
    expect(findSharedReads('README.txt', `see ${UP}/shared/seeds/000.txt`)).toHaveLength(1);
    expect(findSharedReads('README.txt', `see ${UP}/shared/NOTES.md`)).toHaveLength(1);
  });

  it('leaves a module of the repository named shared alone', () => {
    expect(
      findSharedReads('app/api/shares/[token]/fork/route.ts', `import { x } from '${UP}/${UP}/shared';`),
    ).toEqual([]);
  });
});

describe('fixtures', () => {
  it('reads the seed golden case from the repository', () => {
    const tools = readFixtureJson<{ name: string }[]>('seed-optimize-structure/tools.json');
    expect(tools[0].name).toBe('optimize_structure');
  });

  it('names the file when a fixture is missing', () => {
    expect(() => getFixturePath('seed-optimize-structure/nope.json')).toThrow(
      /Fixture missing: tests\/fixtures\/seed-optimize-structure\/nope\.json/,
    );
  });
});
