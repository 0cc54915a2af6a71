// A reader's own texts on this page: their bytes, kept once per page for every widget and
// worker that trains on them (a worker holds a checked copy; a new or replacement worker is
// sent the bytes again), and the ways a text arrives: a file, pasted text, or a URL
// (`text-src`). The checks (UTF-8, not a web page, the sizes) and everything computed from a
// text happen in the live run's worker (`installOwnText`), never here.

import { TEXT_LIMITS } from './schema.js';

/** id (the text_id parameter) → the text's bytes. */
const texts = new Map();
/** Texts kept on the page at most (the oldest goes first). */
const KEPT = 4;

/** The bytes of the reader's text `id`, if this page has them. */
export function textBytes(id) {
  return texts.get(id);
}

/** Keeps `bytes` as the reader's text `id` (as the worker's check named it). */
export function keepText(id, bytes) {
  texts.delete(id);
  texts.set(id, bytes);
  while (texts.size > KEPT) texts.delete(texts.keys().next().value);
}

/** An error whose message is message `id` of the catalogues with its `args` (`{ said, args }`,
 *  as the core's refusals travel: `said_json` in `crates/web/src/words.rs`): the page says it in the
 *  reader's words (`Words.sayReason`), a job in English. An argument is text, a number that may
 *  choose a plural, `{ number }` (said in the language's format) or another `{ said, args }`. */
export function refusal(id, args = {}) {
  return new Error(JSON.stringify({ said: id, args }));
}

/** A text larger than the core takes is refused here, before it is copied to a worker;
 *  `source`, where it came from (a `source-*` message). */
function sized(bytes, source) {
  if (bytes.length > TEXT_LIMITS.maxBytes) {
    throw refusal('text-too-large', { source, bytes: { number: String(bytes.length) }, max: String(TEXT_LIMITS.maxBytes / 2 ** 20) });
  }
  return bytes;
}

/** A dropped or chosen file's bytes (its size checked before it is read). */
export async function fileBytes(file) {
  const source = { said: 'source-file', args: { name: file.name } };
  if (file.size > TEXT_LIMITS.maxBytes) sized({ length: file.size }, source);
  return sized(new Uint8Array(await file.arrayBuffer()), source);
}

/** Pasted text, as UTF-8 bytes. */
export function pastedBytes(text) {
  return sized(new TextEncoder().encode(text), { said: 'source-pasted', args: {} });
}

/** The bytes at `url` (of the page's origin, or served with CORS): an error in words if it
 *  cannot be fetched, answers with an error, or says it is a web page (a `refusal`). `what` is 'text' (its
 *  size checked before it is read) or 'weights'. */
export async function urlBytes(url, what = 'text') {
  const source = { said: what === 'text' ? 'source-text-at' : 'source-weights-at', args: { url } };
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw refusal('fetch-failed', { source, detail: String(e?.message ?? e) });
  }
  if (!response.ok) throw refusal('fetch-status', { source, status: String(response.status) });
  const type = response.headers.get('content-type') ?? '';
  if (/html/i.test(type)) throw refusal('fetch-web-page', { url, type: type.split(';')[0], what: what === 'text' ? 'text' : 'weights' });
  if (what !== 'text') return new Uint8Array(await response.arrayBuffer());
  const length = Number(response.headers.get('content-length'));
  if (length > TEXT_LIMITS.maxBytes) sized({ length }, source);
  return sized(new Uint8Array(await response.arrayBuffer()), source);
}
