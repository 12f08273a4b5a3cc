/**
 * Where a server's CPU went: reads the `.cpuprofile` files a profiled run wrote (BENCH_CPU_PROF,
 * scripts/bench/_server.ts) and prints self time by package (or file) and the top functions.
 *
 *   npx tsx scripts/bench/profile.ts DIR [--top N] [--by file]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package a script URL belongs to ("next", "react-dom", "(app)" for our code, "(node)"). */
export function packageOf(url: string): string {
  if (!url) return '(native/gc/idle)';
  if (url.startsWith('node:')) return '(node)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/.next/')) return '(app build)';
  return '(other)';
}

function main() {
  const args = process.argv.slice(2);
  const dir = args[0];
  if (!dir) throw new Error('usage: profile.ts DIR [--top N] [--by file]');
  const top = Number(args[args.indexOf('--top') + 1]) || 30;
  const byFile = args.includes('--by') && args[args.indexOf('--by') + 1] === 'file';
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id);
      const dt = profile.timeDeltas[i] ?? 0;
      if (!node) return;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') return;
      total += dt;
      const group = byFile ? url || functionName : packageOf(url);
      byGroup.set(group, (byGroup.get(group) ?? 0) + dt);
      const fn = `${functionName || '(anonymous)'} ${url.split('node_modules/').pop()}:${lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
    });
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title} (busy ${(total / 1000).toFixed(0)} ms)`);
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  print(byFile ? 'self time by file' : 'self time by package', byGroup);
  print('self time by function', byFunction);
}

main();
