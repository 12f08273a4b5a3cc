/**
 * A burst of simultaneous creates: N owners (each already holding its cookie) send one
 * POST /api/workflows with a 200-node document at the same moment, against a fresh server and
 * database. Every answer should be 201; exits 1 otherwise, and prints the causes the server
 * logged. It reproduced the set-up failures of a 5-minute load run (500, Prisma P2028, before
 * 171cc88) and then shows the pool's own 5 s connection timeout (503) on bigger bursts.
 *
 *   npx tsx scripts/load/burst.ts [--owners 60] [--nodes 200] [--app-dir DIR]
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLoadDatabase } from './database';
import { buildDocument } from './documents';
import { createRandom } from './random';
import { startServer } from './server';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function main(argv: string[]): Promise<number> {
  const option = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  const owners = Number(option('--owners', '60'));
  const nodes = Number(option('--nodes', '200'));
  const appDir = option('--app-dir', ROOT);
  const pgUrl = option(
    '--pg-url',
    process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const database = await createLoadDatabase(pgUrl, appDir);
  try {
    const server = await startServer({
      appDir,
      databaseUrl: database.url,
      secret: randomBytes(32).toString('hex'),
    });
    try {
      const cookies = await Promise.all(
        Array.from({ length: owners }, async () => {
          const res = await fetch(`${server.url}/api/workflows`);
          return (res.headers.get('set-cookie') ?? '').split(';')[0];
        }),
      );
      const body = JSON.stringify({ name: 'Burst', document: buildDocument(createRandom(5), nodes) });
      const started = performance.now();
      const answers = await Promise.all(
        cookies.map(async (cookie) => {
          const res = await fetch(`${server.url}/api/workflows`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: server.url, cookie },
            body,
          });
          const text = await res.text();
          return res.status === 201 ? '201' : `${res.status} ${JSON.parse(text).code}`;
        }),
      );
      const counts: Record<string, number> = {};
      for (const a of answers) counts[a] = (counts[a] ?? 0) + 1;
      const ms = performance.now() - started;
      console.log(
        `${owners} simultaneous POST /api/workflows (${nodes} nodes, ${(body.length / 1024).toFixed(0)} KB each) in ${ms.toFixed(0)} ms: ${Object.entries(
          counts,
        )
          .map(([k, v]) => `${v} × ${k}`)
          .join(', ')}`,
      );
      // What the server logged about the failures: each distinct cause once, with its count.
      const causes = new Map<string, number>();
      for (const match of server
        .log()
        .matchAll(
          /P2028|timeout exceeded when trying to connect|Connection terminated[\w ]*|too many clients/g,
        ))
        causes.set(match[0], (causes.get(match[0]) ?? 0) + 1);
      for (const [cause, count] of causes) console.log(`server log: ${count} × ${cause}`);
      return counts['201'] === owners ? 0 : 1;
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
