#!/usr/bin/env node
// The package `bin`: the CLI is TypeScript, so register tsx first, then run it.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { runCli } = await import('./cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
