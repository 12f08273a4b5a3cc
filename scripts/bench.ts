/**
 * `npm run bench`: runs every bench module in `scripts/bench/` (each exports `title` and
 * `run(): Promise<BenchRow[]>`), prints one table, and with `--record` appends it to
 * BENCHMARKS.md with the command, machine and date. To add a section, drop a module there.
 *
 *   npm run bench                     all sections
 *   npm run bench -- workflow         only scripts/bench/workflow.ts
 *   npm run bench -- --record         also append the results to BENCHMARKS.md
 */
import { appendFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isTargetMet, type BenchModule, type BenchRow } from './bench/types';

const HERE = dirname(fileURLToPath(import.meta.url));
const BENCH_DIR = join(HERE, 'bench');
const RECORD_FILE = join(HERE, '..', 'BENCHMARKS.md');

/** Bench modules by name (file name without `.ts`), helpers and tests excluded. */
async function findModules(): Promise<string[]> {
  const files = await readdir(BENCH_DIR);
  return files
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'types.ts' && !f.startsWith('_'))
    .map((f) => basename(f, '.ts'))
    .sort();
}

function formatValue(value: number): string {
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The results as a Markdown table (printed and recorded alike). */
function formatTable(sections: { title: string; rows: BenchRow[] }[]): string {
  const lines = [
    '| section | figure | value | unit | target | met | note |',
    '|---|---|---:|---|---:|---|---|',
  ];
  for (const { title, rows } of sections) {
    for (const row of rows) {
      const met = isTargetMet(row);
      const target =
        row.target === undefined ? '' : `${row.better === 'lower' ? '≤' : '≥'} ${formatValue(row.target)}`;
      lines.push(
        `| ${title} | ${row.figure} | ${formatValue(row.value)} | ${row.unit} | ${target} | ${met === undefined ? '' : met ? 'yes' : 'NO'} | ${row.note ?? ''} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const record = argv.includes('--record');
  const wanted = argv.filter((a) => !a.startsWith('--'));
  const names = await findModules();
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: no section ${unknown.map((u) => `"${u}"`).join(', ')}; sections: ${names.join(', ')}\n`,
    );
    return 2;
  }
  const sections: { title: string; rows: BenchRow[] }[] = [];
  for (const name of wanted.length > 0 ? wanted : names) {
    const mod = (await import(pathToFileURL(join(BENCH_DIR, `${name}.ts`)).href)) as BenchModule;
    process.stderr.write(`bench: running ${name}…\n`);
    sections.push({ title: mod.title, rows: await mod.run() });
  }
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`;
  const table = formatTable(sections);
  process.stdout.write(`${machine}\n\n${table}`);
  if (record) {
    const command = `npm run bench${argv.length > 0 ? ' -- ' + argv.join(' ') : ''}`;
    await appendFile(
      RECORD_FILE,
      `\n## ${new Date().toISOString()}\n\n\`${command}\` on ${machine}\n\n${table}`,
    );
    process.stderr.write(`bench: appended to ${RECORD_FILE}\n`);
  }
  const missed = sections.flatMap((s) => s.rows).filter((r) => isTargetMet(r) === false);
  return missed.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
