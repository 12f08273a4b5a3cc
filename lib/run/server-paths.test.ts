import { describe, expect, it } from 'vitest';
import { createPathRedactor, HIDDEN_PATH } from './server-paths';

const DATA = '/srv/toolflow/.data';
const SPACE = `${DATA}/samples/3f9c0a1b2c3d4e5f60718293a4b5c6d7`;
const FILES = `${SPACE}/files`;
const MEMORY = `${SPACE}/memory`;
const redactor = createPathRedactor({
  relative: [FILES, MEMORY],
  hidden: [DATA, '/srv/toolflow', '/home/toolflow'],
});

describe('paths inside a sample’s folder', () => {
  it('are shown relative to it, as the person wrote them', () => {
    expect(redactor.text(`ENOENT: no such file or directory, open '${FILES}/notes/missing.txt'`)).toBe(
      "ENOENT: no such file or directory, open 'notes/missing.txt'",
    );
    expect(redactor.text(`The file ${FILES}/notes/missing.txt does not exist.`)).toBe(
      'The file notes/missing.txt does not exist.',
    );
    expect(redactor.text(`rename '${FILES}/a.txt' -> '${FILES}/b/c.txt'`)).toBe(
      "rename 'a.txt' -> 'b/c.txt'",
    );
  });

  it('show the folder itself as "."', () => {
    expect(redactor.text(`Allowed directories:\n${FILES}`)).toBe('Allowed directories:\n.');
    expect(redactor.text(`/etc/hostname not in ${FILES}`)).toBe('/etc/hostname not in .');
    expect(redactor.text(`(${FILES}/)`)).toBe('(.)');
    expect(redactor.text(`Your folder (${FILES}).`)).toBe('Your folder (.).');
  });

  it('keep a name that only begins like the folder', () => {
    expect(redactor.text(`${FILES}-old/x`)).toBe(`${HIDDEN_PATH}`);
    expect(redactor.text(`${FILES}.bak`)).toBe(HIDDEN_PATH);
  });
});

describe('paths that would show the server’s layout', () => {
  it('are hidden whole: the data directory, another owner’s space, the app, the home directory', () => {
    const other = `${DATA}/samples/ffffffffffffffffffffffffffffffff/files/secret.txt`;
    expect(redactor.text(`Access denied - path outside allowed directories: ${other} not in ${FILES}`)).toBe(
      `Access denied - path outside allowed directories: ${HIDDEN_PATH} not in .`,
    );
    expect(redactor.text(`read '${SPACE}/memory.jsonl'`)).toBe(`read '${HIDDEN_PATH}'`);
    expect(redactor.text(`at /srv/toolflow/node_modules/x/index.js:10:5`)).toBe(`at ${HIDDEN_PATH}:10:5`);
    expect(redactor.text(`cannot write /home/toolflow/.npmrc, sorry`)).toBe(
      `cannot write ${HIDDEN_PATH}, sorry`,
    );
    expect(redactor.text(`${DATA}`)).toBe(HIDDEN_PATH);
  });

  it('leave paths outside the server’s folders alone, and words that merely contain a root', () => {
    expect(redactor.text('/etc/hostname')).toBe('/etc/hostname');
    expect(redactor.text('/mnt/srv/toolflow/x')).toBe('/mnt/srv/toolflow/x');
    expect(redactor.text('/srv/toolflowing')).toBe('/srv/toolflowing');
    expect(redactor.text('notes/todo.txt')).toBe('notes/todo.txt');
  });

  it('finds paths in file URLs and in JSON text, escaped slashes included', () => {
    expect(redactor.text(`file://${FILES}/a.txt`)).toBe('file://a.txt');
    expect(redactor.text(JSON.stringify({ path: `${FILES}/a.txt`, log: `${DATA}/pglite` }))).toBe(
      `{"path":"a.txt","log":"${HIDDEN_PATH}"}`,
    );
    expect(redactor.text(`{"p": "${FILES.replaceAll('/', '\\/')}\\/a.txt"}`)).toBe('{"p": "a.txt"}');
    // JSON inside a JSON string: the hidden path ends at the escaped quote, which stays whole.
    const nested = JSON.stringify(JSON.stringify({ dir: `${DATA}/x` }));
    expect(JSON.parse(JSON.parse(redactor.text(nested)))).toEqual({ dir: HIDDEN_PATH });
  });
});

describe('Windows-like paths', () => {
  const windows = createPathRedactor({
    relative: ['C:\\Toolflow\\.data\\samples\\abc\\files'],
    hidden: ['C:\\Toolflow\\.data', 'C:\\Toolflow', 'C:\\Users\\ada'],
  });

  it('match either separator and any letter case', () => {
    expect(
      windows.text(
        "ENOENT: no such file or directory, open 'C:\\Toolflow\\.data\\samples\\abc\\files\\notes\\a.txt'",
      ),
    ).toBe("ENOENT: no such file or directory, open 'notes\\a.txt'");
    expect(windows.text('c:/toolflow/.DATA/samples/abc/files/x.txt')).toBe('x.txt');
    expect(windows.text('C:\\Users\\ada\\secret.txt is there')).toBe(`${HIDDEN_PATH} is there`);
    expect(windows.text('D:\\Toolflow\\x')).toBe('D:\\Toolflow\\x');
  });

  it('in JSON text, where each backslash is doubled', () => {
    const text = JSON.stringify({
      path: 'C:\\Toolflow\\.data\\samples\\abc\\files\\a.txt',
      app: 'C:\\Toolflow\\bin',
    });
    expect(JSON.parse(windows.text(text))).toEqual({ path: 'a.txt', app: HIDDEN_PATH });
  });
});

describe('JSON values', () => {
  it('redacts every string and key, keeping numbers, booleans, nulls and dates', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const value = {
      content: [{ type: 'text', text: `${FILES}/a.txt` }],
      structuredContent: { [`${FILES}/a.txt`]: 1, list: [`${DATA}/x`, 2, true, null] },
      startedAt: at,
    };
    expect(redactor.json(value)).toEqual({
      content: [{ type: 'text', text: 'a.txt' }],
      structuredContent: { 'a.txt': 1, list: [HIDDEN_PATH, 2, true, null] },
      startedAt: at,
    });
    // The original is not changed.
    expect(value.content[0].text).toBe(`${FILES}/a.txt`);
  });

  it('keeps a key such as __proto__ as data', () => {
    const value = JSON.parse(`{"__proto__": "${DATA}/x"}`) as Record<string, unknown>;
    const out = redactor.json(value);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe(HIDDEN_PATH);
  });

  it('ignores roots too short to be a folder of this server', () => {
    const loose = createPathRedactor({ relative: [], hidden: ['/', 'C:\\', ''] });
    expect(loose.text('/etc/hostname and C:\\x')).toBe('/etc/hostname and C:\\x');
  });
});
