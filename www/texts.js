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

/** A text larger than the core takes is refused here, before it is copied to a worker. */
function sized(bytes, source) {
  if (bytes.length > TEXT_LIMITS.maxBytes) {
    throw new Error(`${source} has ${bytes.length.toLocaleString('en')} bytes; at most ${TEXT_LIMITS.maxBytes / 2 ** 20} MB are taken`);
  }
  return bytes;
}

/** A dropped or chosen file's bytes (its size checked before it is read). */
export async function fileBytes(file) {
  if (file.size > TEXT_LIMITS.maxBytes) sized({ length: file.size }, `the file ${file.name}`);
  return sized(new Uint8Array(await file.arrayBuffer()), `the file ${file.name}`);
}

/** Pasted text, as UTF-8 bytes. */
export function pastedBytes(text) {
  return sized(new TextEncoder().encode(text), 'the pasted text');
}

/** The bytes at `url` (of the page's origin, or served with CORS): an error in words if it
 *  cannot be fetched, answers with an error, or says it is a web page. `what` is 'text' (its
 *  size checked before it is read) or 'weights'. */
export async function urlBytes(url, what = 'text') {
  const named = `the ${what} at ${url}`;
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${named} could not be fetched (${e?.message ?? e}; another origin must allow it with CORS)`);
  }
  if (!response.ok) throw new Error(`${named} could not be fetched (HTTP ${response.status})`);
  const type = response.headers.get('content-type') ?? '';
  if (/html/i.test(type)) throw new Error(`${url} is a web page (${type.split(';')[0]}), not a ${what === 'text' ? 'text' : 'weights'} file`);
  if (what !== 'text') return new Uint8Array(await response.arrayBuffer());
  const length = Number(response.headers.get('content-length'));
  if (length > TEXT_LIMITS.maxBytes) sized({ length }, named);
  return sized(new Uint8Array(await response.arrayBuffer()), named);
}
