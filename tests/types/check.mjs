// The package's TypeScript declarations, checked as an author's project checks them: the
// package installed from the tarball scripts/build.sh packs (dist/ablation-playground-*.tgz,
// what `npm install ablation-playground` would install), React's types beside it, and `tsc
// --noEmit --strict` on each sample: the good ones (sample.ts, sample.tsx) compile, and each bad
// one fails with the error that names its mistake (a misspelt attribute, a word the table lacks,
// a misspelt prop, an event's detail read as the wrong type).
//
//   node tests/types/check.mjs        (after scripts/build.sh; prints ok/FAIL per sample)

import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const MODULES = join(ROOT, 'tests', 'e2e', 'node_modules');
const TSC = join(MODULES, '.bin', 'tsc');

/** Each sample, and what tsc must say of it: null to compile, else a pattern its error matches. */
const SAMPLES = [
  ['sample.ts', null],
  ['sample.tsx', null],
  ['misspelt-attribute.tsx', /error TS2322:.*'dept'/s],
  ['unknown-word.tsx', /error TS2\d+:.*"preLN"/s],
  ['misspelt-prop.tsx', /error TS2322:.*'depht'/s],
  ['wrong-event.ts', /error TS2322: Type 'number' is not assignable to type 'string'/],
];

const dist = join(ROOT, 'dist');
const tarball = (await readdir(dist)).filter((f) => /^ablation-playground-.*\.tgz$/.test(f));
if (tarball.length !== 1) throw new Error(`expected one dist/ablation-playground-*.tgz (scripts/build.sh packs it), found ${JSON.stringify(tarball)}`);

const project = await mkdtemp(join(tmpdir(), 'ap-types-'));
let failed = 0;
try {
  const modules = join(project, 'node_modules');
  await mkdir(join(modules, '@types'), { recursive: true });
  await run('tar', ['-xzf', join(dist, tarball[0]), '-C', project]);
  await rename(join(project, 'package'), join(modules, 'ablation-playground'));
  for (const dep of ['react', 'csstype', '@types/react']) await symlink(join(MODULES, dep), join(modules, dep));
  const base = JSON.parse(await readFile(join(HERE, 'tsconfig.json'), 'utf8'));
  for (const [sample, expected] of SAMPLES) {
    const copy = join(project, sample);
    await copyFile(join(HERE, sample), copy);
    const config = join(project, `tsconfig.${sample}.json`);
    await writeFile(config, JSON.stringify({ ...base, files: [sample] }));
    let out = '';
    let ok = true;
    try {
      await run(TSC, ['-p', config], { cwd: project });
    } catch (e) {
      ok = false;
      out = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    const pass = expected === null ? ok : !ok && expected.test(out);
    if (!pass) failed++;
    const said = expected === null ? (ok ? 'compiles' : 'did not compile') : ok ? 'compiled, but must be refused' : 'refused';
    console.log(`${pass ? 'ok' : 'FAIL'} - ${sample}: ${said}${pass && ok ? '' : `\n${out.trim().split('\n').map((l) => `    ${l}`).join('\n')}`}`);
  }
} finally {
  await rm(project, { recursive: true, force: true });
}
console.log(`types: ${SAMPLES.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
