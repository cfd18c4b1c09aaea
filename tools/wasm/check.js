// Tests of the WebAssembly build in Node, on the files tools/wasm/build.sh wrote (the same
// .wasm files and the same damka-worker.js the page loads). Called by tools/wasm/check.sh:
//   node tools/wasm/check.js DIR NATIVE_DAMKA
// DIR is target/wasm; NATIVE_DAMKA the native binary, whose perft counts (the EPD files),
// bench node count and error lines the WebAssembly build must match.
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { Worker } = require('worker_threads');

const [dir, native] = process.argv.slice(2);
const repo = path.join(__dirname, '..', '..');
// Perft entries up to this many leaves (the deeper ones take minutes; tests/perft.rs has them).
const PERFT_MAX = 2000000;
const STOP_MS = 200;

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}

/** The module's exports, instantiated directly (no worker), with a clock and no pauses. */
async function direct(file) {
  const bytes = fs.readFileSync(path.join(dir, file));
  const env = { damka_now_ms: () => performance.timeOrigin + performance.now(), damka_yield: () => {} };
  return (await WebAssembly.instantiate(bytes, { env })).instance.exports;
}

function input(w, text) {
  const bytes = new TextEncoder().encode(text);
  const at = w.damka_input(bytes.length);
  new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
}

function perft(w) {
  for (const [variant, file] of [[0, 'russian.epd'], [1, 'turkish.epd']]) {
    let checked = 0;
    let wrong = [];
    for (const line of fs.readFileSync(path.join(repo, 'tests', 'data', file), 'utf8').split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      const [fen, ...fields] = line.split(';');
      for (const f of fields) {
        const m = f.trim().match(/^D(\d+)\s+(\d+)$/);
        if (!m || Number(m[2]) > PERFT_MAX) continue;
        input(w, fen.trim());
        const got = w.damka_perft(variant, Number(m[1]));
        checked += 1;
        if (got !== Number(m[2])) wrong.push(`${fen.trim()} D${m[1]}: ${got}, expected ${m[2]}`);
      }
    }
    check(wrong.length === 0 && checked > 100, `perft ${file}: ${checked} counts (up to ${PERFT_MAX} leaves) as in the file`);
    for (const x of wrong.slice(0, 5)) console.log(`     ${x}`);
  }
}

function bench(w, name, nativeNodes) {
  const t = performance.now();
  const nodes = w.damka_bench(0) + w.damka_bench(1);
  const s = (performance.now() - t) / 1000;
  check(nodes === nativeNodes, `bench ${name}: nodes=${nodes} (native ${nativeNodes}) time=${s.toFixed(2)} nps=${Math.round(nodes / s)}`);
}

/** A worker speaking Hub lines, with a way to wait for a line. */
function hub(options) {
  const worker = new Worker(path.resolve(dir, 'damka-worker.js'), options);
  const lines = [];
  let waiter = null;
  worker.on('message', (l) => {
    lines.push({ line: l, at: performance.now() });
    if (typeof l !== 'string') console.log(`FAIL non-string message ${JSON.stringify(l)}`);
    if (waiter && waiter.test(l)) { const w = waiter; waiter = null; w.resolve(l); }
  });
  worker.on('error', (e) => { console.log(`FAIL worker died: ${e}`); failures += 1; });
  return {
    worker,
    lines,
    send: (l) => worker.postMessage(l),
    /** The next line (from now on) that `test` accepts, or null after `ms`. */
    wait(test, ms = 30000) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => { waiter = null; resolve(null); }, ms);
        waiter = { test, resolve: (l) => { clearTimeout(timer); resolve(l); } };
      });
    },
  };
}

async function game(h, legal, variant) {
  const name = ['russian', 'turkish'][variant];
  h.send(`set-param name=variant value=${name}`);
  h.send('new-game');
  const moves = [];
  let bad = null;
  for (let ply = 0; ply < 400; ply++) {
    input(legal, moves.join(' '));
    if (legal.damka_legal(variant) === 0) break;
    h.send(`pos start moves="${moves.join(' ')}"`);
    h.send('level depth=3');
    h.send('go think');
    const done = await h.wait((l) => l.startsWith('done') || l.startsWith('error'));
    const m = done && done.match(/^done move=(\S+)/);
    if (!m) { bad = `ply ${ply}: ${done}`; break; }
    moves.push(m[1]);
    input(legal, moves.join(' '));
    if (legal.damka_legal(variant) < 0) { bad = `ply ${ply}: illegal ${m[1]}`; break; }
  }
  input(legal, moves.join(' '));
  const over = legal.damka_legal(variant) === 0;
  check(!bad && over, `hub game ${name}: ${moves.length} plies, every move legal, game over${bad ? ` (${bad})` : ''}`);
}

async function stop(h) {
  h.send('set-param name=variant value=russian');
  h.send('pos start');
  h.send('go analyze');
  const info = await h.wait((l) => l.startsWith('info depth=6'));
  await new Promise((r) => setTimeout(r, 300));
  h.send('ping');
  const pong = await h.wait((l) => l === 'pong', 2000);
  check(pong !== null, 'ping during go analyze: pong');
  const t = performance.now();
  h.send('stop');
  const done = await h.wait((l) => l.startsWith('done'), 5000);
  const ms = performance.now() - t;
  check(info !== null && done !== null && ms <= STOP_MS, `stop during go analyze: ${done} after ${ms.toFixed(0)} ms (limit ${STOP_MS})`);
}

/** Bad input: the same error lines as the native `damka hub`, and the worker goes on. */
async function badInput(h) {
  const bad = ['foo bar', 'pos pos=W:Wz9:Bxx', 'pos start moves="c3-d4 c3-d4"', 'level depth=x',
    'set-param name=nothing value=1', 'go sideways'];
  const nativeOut = execFileSync(native, ['hub'], { input: ['set-param name=variant value=russian', ...bad, ''].join('\n') })
    .toString().split('\n').filter((l) => l.startsWith('error'));
  h.send('set-param name=variant value=russian');
  h.send('new-game');
  h.send('pos start');
  h.send('go analyze');
  // After the search's `done` (a `pos` ends the search), only error lines are expected.
  const start = h.lines.length;
  for (const l of bad) h.send(l);
  for (const x of [42, { line: 'ping' }, null, new Uint8Array([1, 2])]) h.send(x);
  h.send('ping');
  const pong = await h.wait((l) => l === 'pong', 10000);
  const got = h.lines.slice(start).map((x) => x.line).filter((l) => l.startsWith('error'));
  const strings = got.filter((l) => !l.includes('not a string'));
  const others = got.filter((l) => l.includes('not a string'));
  check(pong !== null, 'worker alive after bad input (pong)');
  check(JSON.stringify(strings) === JSON.stringify(nativeOut.slice(0, strings.length)) && strings.length === nativeOut.length,
    `error lines as native (${strings.length}): ${JSON.stringify(strings)} vs ${JSON.stringify(nativeOut)}`);
  check(others.length === 4, `non-string messages: ${others.length} error lines of 4`);
}

async function main() {
  const nativeBench = execFileSync(native, ['bench'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const nativeNodes = Number(nativeBench.trim().split('\n').pop().match(/nodes=(\d+)/)[1]);
  console.log(`native: ${nativeBench.trim().split('\n').pop()}`);
  const simd = await direct('damka-simd.wasm');
  const plain = await direct('damka.wasm');
  perft(simd);
  bench(simd, 'simd', nativeNodes);
  bench(plain, 'no simd', nativeNodes);
  // The build for browsers with JSPI (Node has none: its bench runs, its pauses do not).
  bench(await direct('damka-simd-jspi.wasm'), 'simd, for JSPI', nativeNodes);
  for (const f of ['damka-simd-jspi.wasm', 'damka-simd.wasm', 'damka.wasm']) {
    const size = fs.statSync(path.join(dir, f)).size;
    check(size <= 3 * 1024 * 1024, `${f}: ${size} bytes (at most 3 MiB)`);
  }
  for (const [name, choice] of [['simd', '1'], ['no simd', '0']]) {
    console.log(`-- worker, ${name}`);
    const h = hub({ workerData: { simd: choice } });
    h.send('hub');
    check((await h.wait((l) => l === 'wait')) !== null, 'hub: wait');
    h.send('init');
    check((await h.wait((l) => l === 'ready')) !== null, 'init: ready');
    await stop(h);
    await badInput(h);
    await game(h, simd, 0);
    await game(h, simd, 1);
    await h.worker.terminate();
  }
  if (failures > 0) {
    console.log(`${failures} failure(s)`);
    process.exit(1);
  }
  console.log('all WebAssembly checks passed');
}

main().catch((e) => { console.log(`FAIL ${e.stack}`); process.exit(1); });
