/**
 * XSS, at the source: tool names, descriptions, parameter values and workflow names reach the
 * page only as React text (escaped by React). This keeps it that way: no raw-HTML sinks, no code
 * built from strings, markdown never enabled for descriptions, and no link or source URL taken
 * from data (a `javascript:` value stays text). e2e/security.spec.ts shows it in Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (['node_modules', 'generated', '__fixtures__'].includes(entry.name)) return [];
      return sourceFiles(rel);
    }
    return /\.(ts|tsx|js|jsx|mjs)$/.test(entry.name) && !/\.test\.|\.spec\./.test(entry.name) ? [rel] : [];
  });
}

/** Everything that runs in the app (pages, components, the libraries they use). */
const files = ['app', 'components', 'lib', 'proxy.ts'].flatMap((p) =>
  fs.statSync(path.join(root, p)).isDirectory() ? sourceFiles(p) : [p],
);
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Finds `pattern` in every file; returns `file:line: text` for each hit. */
function findAll(pattern: RegExp, only: (file: string) => boolean = () => true): string[] {
  return files.filter(only).flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('untrusted text is rendered as text', () => {
  it('scans the app', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('components/nodes/tool-node.tsx');
  });

  it('uses no raw-HTML sink (dangerouslySetInnerHTML, innerHTML, outerHTML, insertAdjacentHTML, document.write, srcdoc)', () => {
    expect(
      findAll(
        /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|createContextualFragment|\bsrcDoc\b|\bsrcdoc\b/,
      ),
    ).toEqual([]);
  });

  it('builds no code from strings (eval, new Function, string timers)', () => {
    expect(findAll(/\beval\(|new Function\(|set(Timeout|Interval)\(\s*['"`]/)).toEqual([]);
  });

  it('never turns on markdown for schema descriptions in the generated form', () => {
    expect(findAll(/enableMarkdownInDescription|markdown-to-jsx|react-markdown/)).toEqual([]);
  });

  it('takes no link, image or form URL from data: every href/src/action is a constant or an app path', () => {
    // AppLink passes its own prop on; its type admits only paths on this origin (checked here).
    const appLink = 'components/ui/app-link.tsx';
    expect(read(appLink)).toMatch(/\{ href: `\/\$\{string\}` \}/);
    const jsx = findAll(/\b(href|src|action|formAction)=\{/, (f) => f.endsWith('.tsx')).filter(
      (hit) => !hit.startsWith(`${appLink}:`) || !/<a href=\{href\} /.test(hit),
    );
    for (const hit of jsx) {
      const expression = /\b(?:href|src|action|formAction)=\{(`[^`]*`|'[^']*'|"[^"]*"|[^}]*)\}/.exec(
        hit,
      )?.[1];
      // A template literal that starts with "/" stays on this origin whatever it interpolates.
      expect(expression, hit).toMatch(/^`\/[^`]*`$|^'[^']*'$|^"[^"]*"$/);
    }
    const assigned = findAll(/\.(href|src|action)\s*=(?!=)/);
    for (const hit of assigned) {
      const value = /\.(?:href|src|action)\s*=\s*(.*?);?$/.exec(hit)?.[1] ?? '';
      // An app path, or the object URL of a Blob made here (lib/editor/download.ts).
      expect(value, hit).toMatch(/^`\/[^`]*`$|^url$/);
    }
    const blobUrl = read('lib/editor/download.ts');
    expect(blobUrl).toMatch(/const url = URL\.createObjectURL\(new Blob\(/);
  });
});
