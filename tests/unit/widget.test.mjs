// The widget's state and its one update (www/widget.js), without a browser: what the desired
// live state says the worker should do after each message, as a reader's or a host's actions
// send them.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { initialWidget, training, update } from '../../www/widget.js';

const CONFIG = new Uint8Array([1, 2, 3]);

/** A widget started and in view, playing as `playing` says. */
function started(playing = true) {
  const s = initialWidget({ playing, comparisons: ['compare', 'sweep'] });
  update(s, { kind: 'visible', near: true });
  update(s, { kind: 'start', config: CONFIG });
  return s;
}

test('the first desired state is generation 1, training when autoplay and in view', () => {
  const s = started();
  assert.equal(s.live.generation, 1);
  assert.equal(s.runGeneration, 1);
  assert.equal(s.live.playing, true);
  assert.deepEqual(s.live.config, CONFIG);
  assert.deepEqual(s.started, { compare: false, sweep: false });
  const still = started(false);
  assert.equal(still.live.playing, false, 'no autoplay: paused');
});

test('out of view the run does not train, and the reader still wants it to', () => {
  const s = started();
  update(s, { kind: 'visible', near: false });
  assert.equal(s.playing, true);
  assert.equal(s.live.playing, false);
  assert.equal(training(s), false);
  update(s, { kind: 'visible', near: true });
  assert.equal(s.live.playing, true);
});

test('a message that changes nothing sends no new state; a request always does', () => {
  const s = started();
  const g = s.live.generation;
  update(s, { kind: 'play', finished: false });
  assert.equal(s.live.generation, g, `play while playing: ${s.live.generation}`);
  update(s, { kind: 'request', name: 'lenses' });
  update(s, { kind: 'request', name: 'lenses' });
  assert.equal(s.live.lenses, 2);
  assert.equal(s.live.generation, g + 2);
  assert.throws(() => update(s, { kind: 'request', name: 'nonsense' }), /no request nonsense/);
  assert.throws(() => update(s, { kind: 'nonsense' }), /no message nonsense/);
});

test('Step pauses and asks for one step; Play on a finished run extends it', () => {
  const s = started();
  update(s, { kind: 'step' });
  assert.equal(s.playing, false);
  assert.equal(s.live.playing, false);
  assert.equal(s.live.steps, 1);
  update(s, { kind: 'play', finished: true });
  assert.equal(s.live.extensions, 1);
  assert.equal(s.live.playing, true);
});

test('a run that stopped by itself trains again on a new setting; a paused one does not', () => {
  const s = started();
  update(s, { kind: 'stopped-itself', generation: s.live.generation });
  assert.equal(s.playing, false);
  assert.equal(s.stoppedItself, true);
  update(s, { kind: 'restart', config: CONFIG });
  assert.equal(s.playing, true, 'the new setting trains');
  assert.equal(s.live.playing, true);
  assert.equal(s.runGeneration, s.live.generation, 'frames before the restart are dropped');
  update(s, { kind: 'pause' });
  update(s, { kind: 'restart', config: CONFIG });
  assert.equal(s.live.playing, false, "the reader's Pause is kept");
  assert.equal(s.live.restarts, 2);
});

test('only the newest state\'s frame stops the widget', () => {
  const s = started();
  const old = s.live.generation;
  update(s, { kind: 'restart', config: CONFIG });
  update(s, { kind: 'stopped-itself', generation: old });
  assert.equal(s.playing, true, "a replaced run's last frame does not stop the new one");
});

test('a reader\'s text trains; loaded weights wait for Play', () => {
  const s = started();
  update(s, { kind: 'await-text', id: 'abc.10.5' });
  assert.equal(s.awaitingText, 'abc.10.5');
  update(s, { kind: 'weights-loaded' });
  assert.equal(s.live.playing, false);
  update(s, { kind: 'text-checked', words: { id: 'abc.10.5', words: 'a text' } });
  assert.equal(s.awaitingText, null);
  assert.equal(s.live.playing, true);
});

test('parameters before the start: the last value of each wins, and the start takes them', () => {
  const s = initialWidget({ pending: [['depth', '4']] });
  update(s, { kind: 'pending', name: 'depth', value: '6' });
  update(s, { kind: 'pending', name: 'norm', value: 'post' });
  assert.deepEqual(s.pending, [['depth', '6'], ['norm', 'post']]);
  update(s, { kind: 'play' });
  assert.equal(s.live, null, 'no desired state before the start');
  update(s, { kind: 'start', config: CONFIG });
  assert.deepEqual(s.pending, []);
});

test('update says what changed: the desired state, the reader\'s Play', () => {
  const s = started();
  assert.deepEqual(update(s, { kind: 'play' }), { live: false, playing: false });
  assert.deepEqual(update(s, { kind: 'pause' }), { live: true, playing: true });
  assert.deepEqual(update(s, { kind: 'show', shown: { controls: null, panels: null } }), { live: false, playing: false });
  update(s, { kind: 'play' });
  assert.deepEqual(update(s, { kind: 'stopped-itself', generation: s.live.generation }), { live: true, playing: true });
  assert.deepEqual(update(s, { kind: 'restart', config: CONFIG }), { live: true, playing: true });
});
