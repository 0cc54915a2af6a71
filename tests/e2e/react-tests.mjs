// The React component (ablation-playground/react, npm/react.js) in a real React 19 app built by
// Vite from a fresh project that installs the package's tarball, in Chromium: props reach the
// element (a switch given as a boolean, a pin), a prop changed by React state restarts it, the
// events reach React state, the ref is the element, and `.value` has exactly the fields the
// package's TypeScript declarations say (npm/index.d.ts, npm/params.d.ts): a field added to the
// core's value without its type, or a type for a field that is gone, fails here.
//
// Registered into run.mjs's runner: a console error, an uncaught exception or a failed request
// fails a test here too (React's own warnings in development builds are console errors: the
// app is a production build, as a site ships).

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, test, waitFor } from './harness.mjs';
import { DIST, installPackage, startServer } from './lib.mjs';

/** The field names an interface of a declaration file declares (`name:` or `name?:` at its top level). */
function declaredFields(source, name) {
  const start = source.indexOf(`export interface ${name} `);
  if (start < 0) throw new Error(`no interface ${name}`);
  const body = source.slice(source.indexOf('{', start) + 1);
  const fields = [];
  let depth = 0;
  for (const line of body.split('\n')) {
    if (depth === 0) {
      if (line.startsWith('}')) break;
      const m = line.match(/^ {2}([a-z_][a-z0-9_]*)\??:/);
      if (m) fields.push(m[1]);
    }
    depth += (line.match(/[{(<]/g) ?? []).length - (line.match(/[})>]/g) ?? []).length;
  }
  return fields;
}

export default function registerReactTests() {
  test('React 19: the component from the installed package trains, takes boolean switches and a pin, follows state, and its value has the declared fields', async ({ page, note, shot }) => {
    const app = await mkdtemp(join(tmpdir(), 'ap-react-'));
    let server = null;
    try {
      note('npm install of the tarball with react and react-dom');
      await installPackage(app, ['react@19.3.1', 'react-dom@19.3.1']);
      await writeFile(join(app, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a React lesson</title></head><body><div id="root"></div><script type="module" src="./main.jsx"></script></body></html>');
      await writeFile(
        join(app, 'main.jsx'),
        `import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AblationPlayground } from 'ablation-playground/react';

function Lesson() {
  const ref = useRef(null);
  const [depth, setDepth] = useState(6);
  const [seen, setSeen] = useState(null);
  const [changes, setChanges] = useState(0);
  window.lesson = { ref };
  return (
    <main>
      <p id="seen">{seen ? \`step \${seen.step} · depth \${seen.depth} · residual \${seen.residual} · pins \${seen.pins.length}\` : 'waiting'}</p>
      <p id="changes">{changes} changes</p>
      <button type="button" id="deeper" onClick={() => setDepth((d) => d + 2)}>Deeper</button>
      <AblationPlayground ref={ref} id="p" depth={depth} residual={false} pin="residual:on@40" panels="histogram,loss"
        onUpdate={setSeen} onChange={() => setChanges((n) => n + 1)} />
    </main>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><Lesson /></StrictMode>);
`,
      );
      note('building with Vite');
      const { build } = await import('vite');
      await build({ root: app, configFile: false, logLevel: 'silent', build: { outDir: join(app, 'out'), emptyOutDir: true } });
      server = await startServer(join(app, 'out'));
      await page.goto(`${server.url}/`);
      note('waiting for React to hear the element train');
      await waitFor(page, () => /^step ([3-9]|\d\d+) · depth 6 · residual off · pins 1$/.test(document.getElementById('seen').textContent), null,
        async () => `React state from onUpdate: "${await page.locator('#seen').textContent()}"`, 30_000);
      const el = await page.evaluate(() => {
        const p = document.getElementById('p');
        return { isRef: window.lesson.ref.current === p, pin: p.getAttribute('pin'), pinIsMethod: typeof p.pin === 'function', residual: p.getAttribute('residual') };
      });
      assert(el.isRef, 'the ref is not the element');
      assert(el.pin === 'residual:on@40' && el.pinIsMethod, `the pin prop: attribute ${el.pin}, el.pin a ${el.pinIsMethod ? 'function' : 'value'} (React 19 sets a prop that names a property as the property)`);
      assert(el.residual === 'off', `residual={false} became residual="${el.residual}"`);
      // React state changes a prop: the element restarts at the new depth
      note('a prop changed by React state');
      await page.locator('#deeper').click();
      await waitFor(page, () => document.getElementById('p').value?.depth === 8, null, async () => `depth after the state change: ${await page.evaluate(() => document.getElementById('p').value?.depth)}`);
      // a reader's change reaches React through onChange
      note("a reader's change through onChange");
      await page.getByRole('slider', { name: 'Depth' }).focus();
      await page.keyboard.press('ArrowRight');
      await waitFor(page, () => /^[1-9]\d* changes$/.test(document.getElementById('changes').textContent), null, 'onChange never reached React');
      // the ref's methods work
      await page.evaluate(() => window.lesson.ref.current.pause());
      await shot('react-app');
      // .value's fields are the declared ones, no more and no fewer
      note(".value's fields against the declarations");
      const declared = [
        ...declaredFields(await readFile(join(DIST, 'package', 'params.d.ts'), 'utf8'), 'AblationPlaygroundParams'),
        ...declaredFields(await readFile(join(DIST, 'package', 'index.d.ts'), 'utf8'), 'AblationPlaygroundValue'),
      ].sort();
      const actual = (await page.evaluate(() => Object.keys(document.getElementById('p').value))).sort();
      const missing = actual.filter((k) => !declared.includes(k));
      const extra = declared.filter((k) => !actual.includes(k));
      assert(!missing.length && !extra.length, `.value's fields and the declarations differ: undeclared ${JSON.stringify(missing)}, declared but absent ${JSON.stringify(extra)}`);
    } finally {
      await server?.close();
      await rm(app, { recursive: true, force: true });
    }
    // (an npm install from the registry and a Vite build before the page: 60 s, the runner's
    // default, was too little on a loaded machine, which times it out after the build; 180 s
    // once ran out at the test's last step, the page having passed every check, on a day the
    // registry was slow)
  }, { timeoutMs: 300_000 });
}
