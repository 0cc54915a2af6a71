// The loops' turns (engine.js `turnTaker`): which kind of task every fifth turn is, and that the
// loop's inbox is read between turns whichever it keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnTaker } from '../../www/engine.js';

/** Runs `turns` turns of a loop (each busy `workMs`, `onTurn(n, way)` told of each), posting a
 *  message to the loop's inbox every 10 turns; resolves with the way kept and the turns each
 *  message waited. */
function loop(options, { turns = 400, workMs = 0.2, onTurn = () => {} } = {}) {
  return new Promise((done) => {
    const inbox = new MessageChannel();
    const waited = [];
    let n = 0;
    let posted = -1;
    inbox.port1.onmessage = () => {
      waited.push(n - posted);
      posted = -1;
    };
    const taker = turnTaker(() => {
      n++;
      onTurn(n, taker.way);
      const end = performance.now() + workMs;
      while (performance.now() < end);
      if (n % 10 === 0 && posted < 0) {
        posted = n;
        inbox.port2.postMessage(0);
      }
      if (n < turns) taker.next();
      else {
        const way = taker.way;
        taker.close();
        inbox.port1.close();
        done({ way, waited });
      }
    }, options);
    taker.next();
  });
}

const soon = { digest: () => Promise.resolve(new ArrayBuffer(20)) };
const late = { digest: () => new Promise((ok) => setTimeout(() => ok(new ArrayBuffer(20)), 20)) };
const broken = { digest: () => Promise.reject(new Error('no digest here')) };

test('a loop whose channel turns come on time keeps the channel', async () => {
  const r = await loop({ subtle: soon, slowMs: Infinity });
  assert.equal(r.way, 'channel', `kept ${r.way}`);
});

test('where the channel comes late and the digest sooner, the digest is kept, and the inbox is read', async () => {
  const r = await loop({ subtle: soon, slowMs: 0 });
  assert.equal(r.way, 'digest', `kept ${r.way}`);
  assert.ok(r.waited.length >= 30, `only ${r.waited.length} of the messages got in`);
  assert.ok(Math.max(...r.waited) <= 5, `a message waited ${Math.max(...r.waited)} turns: ${r.waited}`);
});

test('a digest whose turns come later than the channel\'s is tried and dropped', async () => {
  const r = await loop({ subtle: late, slowMs: 0 }, { turns: 300 });
  assert.equal(r.way, 'channel', `kept ${r.way}`);
});

test('a digest that fails gives its turn back and the channel is kept', async () => {
  const r = await loop({ subtle: broken, slowMs: 0 });
  assert.equal(r.way, 'channel', `kept ${r.way}`);
  assert.ok(r.waited.length >= 30, `only ${r.waited.length} of the messages got in`);
});

test('without crypto.subtle the channel is kept', async () => {
  const r = await loop({ subtle: null, slowMs: 0 });
  assert.equal(r.way, 'channel', `kept ${r.way}`);
});

test('a way kept is timed again: a digest that became slow is dropped at the next timing', async () => {
  let calls = 0;
  const slowing = { digest: () => (++calls <= 60 ? Promise.resolve(new ArrayBuffer(20)) : new Promise((ok) => setTimeout(() => ok(new ArrayBuffer(20)), 5))) };
  const seen = [];
  const r = await loop({ subtle: slowing, slowMs: 0 }, { turns: 2500, workMs: 0, onTurn: (n, way) => n % 100 === 0 && seen.push(way) });
  assert.equal(seen[2], 'digest', `ways every 100 turns: ${seen}`);
  assert.equal(r.way, 'channel', `kept ${r.way}; ways every 100 turns: ${seen}`);
});

test('each try the digest loses doubles the turns before the next', async () => {
  const slow = { digest: () => new Promise((ok) => setTimeout(() => ok(new ArrayBuffer(20)), 3)) };
  const tries = [];
  let last = 'channel';
  await loop({ subtle: slow, slowMs: 0 }, {
    turns: 4600,
    workMs: 0,
    onTurn: (n, way) => {
      if (way === 'digest' && last !== 'digest') tries.push(n);
      last = way;
    },
  });
  // (a turn sees the way its own timing chose) tried from the 100th turn, then from the
  // 100 + 100 + 4000 + 100th (after 4000 kept turns, not 2000)
  assert.deepEqual(tries, [100, 4300], `the digest was tried from turns ${tries}`);
});
