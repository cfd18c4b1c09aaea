// damka in a web worker: every message in is one Hub line, every message out is one Hub line,
// the same dialect and the same `error` lines as `damka hub`. Start it with
// `new Worker('damka-worker.js')`; it loads damka-simd.wasm where the browser has WebAssembly
// SIMD, else damka.wasm, from its own folder, at the first message.
//
// The engine runs on this worker's one thread. A search pauses every few milliseconds in the
// imported `damka_yield` and lets the message loop run, so that a `stop` can arrive, then
// goes on where it left off. Browsers with JavaScript Promise Integration (JSPI) suspend the
// WebAssembly stack themselves: they load damka-simd-jspi.wasm, the plain build. Elsewhere
// the script unwinds and rewinds the stack by Asyncify (damka-simd.wasm and damka.wasm,
// instrumented by wasm-opt at build time, somewhat slower). No SharedArrayBuffer, so no
// special headers.
//
// The same file runs under Node (worker_threads) for the tests: see tools/wasm/check.js.
'use strict';

/* global self */

const node = typeof self === 'undefined';
const port = node ? require('worker_threads').parentPort : self;
const post = (line) => port.postMessage(line);

// Longest run of a search between two turns of the message loop, ms.
const YIELD_MS = 10;
// Room for the paused call stack (Asyncify's saved locals and call positions), bytes.
const ASYNC_STACK = 1 << 20;
// A module using one SIMD instruction: it validates only where SIMD is available.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1,
  0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

let wasm = null;       // the instance's exports
let compiled = null;   // the compiled module, kept to start afresh after a crash
let loading = null;    // the promise of the first load
let asyncData = 0;     // Asyncify's control block and stack, in the module's memory
let unwinding = false; // the search is being unwound to pause it
let rewinding = false; // the search is being rewound to resume it
let running = false;   // damka_run is on the stack (paused or not)
let inRun = false;     // damka_run is executing now (not paused)
let lastTurn = 0;      // when the message loop last ran, ms
let quit = false;

const now = () => (typeof performance !== 'undefined' ? performance.timeOrigin + performance.now() : Date.now());

/** Gives the message loop a turn: setImmediate under Node, a MessageChannel in browsers (no
 * 4 ms clamp as nested timers have). */
const turn = (() => {
  if (typeof setImmediate === 'function') return () => new Promise((r) => setImmediate(r));
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  return () => new Promise((r) => { waiting.push(r); channel.port2.postMessage(0); });
})();

function damkaYield() {
  if (rewinding) {
    // Back where the search paused: it goes on.
    wasm.asyncify_stop_rewind();
    rewinding = false;
    return;
  }
  // Only a search started by damka_run can pause: its callers are instrumented to resume.
  if (!inRun || performance.now() - lastTurn < YIELD_MS) return;
  const mem = new Int32Array(wasm.memory.buffer);
  mem[asyncData >> 2] = asyncData + 8;
  mem[(asyncData + 4) >> 2] = asyncData + 8 + ASYNC_STACK;
  wasm.asyncify_start_unwind(asyncData);
  unwinding = true;
}

/** The JSPI pause: a promise the engine waits for (suspended) when the loop's turn is due. */
function jspiYield() {
  if (!inRun || performance.now() - lastTurn < YIELD_MS) return undefined;
  return (async () => {
    wasm.damka_poll();
    flush();
    await turn();
    feedQueued();
    lastTurn = performance.now();
  })();
}

const jspi = typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function';
let runJspi = null; // damka_run as a promising export

function imports(name) {
  const pause = name.endsWith('-jspi.wasm') ? new WebAssembly.Suspending(jspiYield) : damkaYield;
  return { env: { damka_now_ms: now, damka_yield: pause } };
}

function simd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch (e) {
    return false;
  }
}

/** The build to load: `simd=0` or `simd=1` (the worker's URL query, or Node's workerData)
 * overrides the detection, for tests and measurements. */
function wanted() {
  const asked = node
    ? String((require('worker_threads').workerData || {}).simd ?? '')
    : new URL(self.location.href).searchParams.get('simd') || '';
  if (asked === '0') return 'damka.wasm';
  if (asked === '1') return 'damka-simd.wasm';
  if (asked === 'jspi' || (asked === '' && jspi && simd())) return 'damka-simd-jspi.wasm';
  return simd() ? 'damka-simd.wasm' : 'damka.wasm';
}

let moduleName = '';

async function compile() {
  const name = wanted();
  moduleName = name;
  if (node) {
    const path = require('path');
    const bytes = require('fs').readFileSync(path.join(__dirname, name));
    return WebAssembly.compile(bytes);
  }
  const url = new URL(name, self.location.href);
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (e) {
      // A server that sends another MIME type than application/wasm: compile the bytes.
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A fresh instance of the module (a new Hub session). */
async function start() {
  wasm = (await WebAssembly.instantiate(compiled, imports(moduleName))).exports;
  runJspi = moduleName.endsWith('-jspi.wasm') ? WebAssembly.promising(wasm.damka_run) : null;
  asyncData = runJspi ? 0 : wasm.damka_alloc(ASYNC_STACK + 8);
  unwinding = rewinding = running = false;
}

function load() {
  if (!loading) loading = compile().then((m) => { compiled = m; return start(); });
  return loading;
}

/** Posts every complete line of the engine's output. */
function flush() {
  const len = wasm.damka_output_len();
  if (len === 0) return;
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.damka_output(), len).slice();
  wasm.damka_output_clear();
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    if (line !== '') post(line);
  }
}

/** Hands one line to the session. */
function feed(line) {
  const bytes = new TextEncoder().encode(line);
  const at = wasm.damka_input(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  if (wasm.damka_feed() === 0) quit = true;
}

/** One call of damka_run, which returns when the search finishes or pauses. */
function runOnce() {
  inRun = true;
  try {
    return wasm.damka_run();
  } finally {
    inRun = false;
  }
}

/** Runs what the lines started (a search), pausing it for the message loop, to the end. */
async function run() {
  running = true;
  lastTurn = performance.now();
  if (runJspi) {
    try {
      inRun = true;
      if ((await runJspi()) === 0) quit = true;
    } finally {
      inRun = false;
      running = false;
    }
    flush();
    return;
  }
  try {
    let going = runOnce();
    while (unwinding) {
      wasm.asyncify_stop_unwind();
      unwinding = false;
      wasm.damka_poll();
      flush();
      await turn();
      feedQueued();
      lastTurn = performance.now();
      wasm.asyncify_start_rewind(asyncData);
      rewinding = true;
      going = runOnce();
    }
    if (going === 0) quit = true;
  } finally {
    running = false;
  }
  flush();
}

/** A message that is no line of text. */
function reject() {
  wasm.damka_reject();
  flush();
}

/** The engine failed (a bug): say so, and start a fresh session so the worker goes on. */
async function crashed(e) {
  try {
    flush();
  } catch (x) {
    // The memory is unreadable: only the line below.
  }
  post(`error message="engine failure, session restarted: ${String(e && e.message).replace(/"/g, "'")}"`);
  await start();
}

// Messages not yet handed to the session (they arrived while the module loaded).
const queue = [];

/** Hands the waiting messages to the session, in order. The session answers `stop`,
 * `ponder-hit` and `ping` at once even during a search; other lines stop the search and wait
 * for it inside the session, so order is kept. */
function feedQueued() {
  while (queue.length > 0 && !quit) {
    const data = queue.shift();
    if (typeof data !== 'string') {
      reject();
      continue;
    }
    for (const line of data.split('\n')) {
      if (!quit) feed(line);
    }
  }
  flush();
}

async function onMessage(data) {
  if (quit) return;
  queue.push(data);
  try {
    await load();
  } catch (e) {
    queue.length = 0;
    post(`error message="engine not loaded: ${String(e && e.message).replace(/"/g, "'")}"`);
    loading = null;
    return;
  }
  try {
    feedQueued();
    // A run in progress (the search is paused now) carries out what was fed.
    if (!running) await run();
  } catch (e) {
    await crashed(e);
  }
  if (quit && !running) {
    if (node) process.exit(0); else self.close();
  }
}

if (node) port.on('message', onMessage);
else self.onmessage = (e) => onMessage(e.data);
