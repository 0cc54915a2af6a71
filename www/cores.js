// The reader's cores and how the live runs on this page share them: together they take at most
// all the cores but one, which is left to the page (its drawing, its scrolling), so a lesson
// with two visible playgrounds on a two-core laptop trains each at half a core and never
// stutters. The comparisons' pool (pool.js) takes what the live runs and the page leave.

/** The live runs training on this page now (their drivers' pace handles, driver.js). */
const training = new Set();

/** The machine's cores, as the browser says (2 if it does not). */
export function cores() {
  return Number(globalThis.navigator?.hardwareConcurrency) || 2;
}

/** For tests: each training live run's share of a core, as given and as its engine last said. */
export function trainingShares() {
  return [...training].map((d) => ({ given: d.share, engine: d.engine }));
}

/** Whether the live run `paced` trains now: when that changes, every training run is told its
 *  new share of a core (`paced.pace(share)`). Returns whether it changed. */
export function setTraining(paced, playing) {
  if (playing === training.has(paced)) return false;
  if (playing) training.add(paced);
  else training.delete(paced);
  const share = Math.min(1, Math.max(1, cores() - 1) / Math.max(1, training.size));
  for (const run of training) run.pace(share);
  return true;
}
