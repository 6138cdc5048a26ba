// A sandbox worker: one warm QuickJS instance, a fresh runtime and context per run; only strings cross.
// After an out-of-memory or a stack overflow the pool ends the worker (quickjs-emscripten issues 257, 269).
import { parentPort, workerData } from 'node:worker_threads';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import { PRELUDE } from './prelude.js';
import {
  type FailureKind,
  type FromWorker,
  GLOBALS,
  type ToWorker,
  type WorkerOutcome,
  type WorkerSetup,
  wasmApi,
} from './protocol.js';

/** The program is wrapped on its own first line: only that line's columns shift, by this much. */
const PREFIX = '(async () => {';
/** QuickJS's own stack bound; below the worker thread's native stack, so that QuickJS stops first. */
const MAX_STACK_BYTES = 512 * 1024;
const LOG_LINES = 200;
const LOG_CHARS = 16 * 1024;
const MESSAGE_MAX = 2_000;
const OVER_MEMORY = 'InternalError: out of memory: the program went past its memory limit';

const port = parentPort;
if (!port) throw new Error('src/analysis/worker.ts runs as a worker thread');
const setup = workerData as WorkerSetup;
const logsCut = new Int32Array(setup.logsCut);
// The package's CommonJS types say `{ default }`; loaded as ES module (as here and in the bundle) it is the variant.
const variant = releaseSync as unknown as QuickJSSyncVariant;
const memory = new wasmApi.Memory({ initial: 256, maximum: Math.ceil(setup.maxWasmBytes / (64 * 1024)) });
/** Whether the WebAssembly memory refused to grow (its ceiling) during the run in progress. */
let growRefused = false;
/** Whether the run's error reads as QuickJS's own bound (out of memory, stack overflow): then retired. */
let engineBound = false;
{
  const growable = memory as unknown as { grow(pages: number): number };
  const grow = growable.grow.bind(memory);
  growable.grow = (pages: number) => {
    try {
      return grow(pages);
    } catch (error) {
      growRefused = true;
      throw error;
    }
  };
}
const QuickJS = await newQuickJSWASMModuleFromVariant(
  newVariant(variant, { wasmModule: setup.wasm as never, wasmMemory: memory as never }),
);

const post = (message: FromWorker) => port.postMessage(message);

/** A run's runtime and context, its pending host calls by id, and the handles it made. */
interface Live {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  calls: Map<number, QuickJSDeferredPromise>;
  handles: QuickJSHandle[];
}
function open(runtime: QuickJSRuntime): Live {
  return { runtime, context: runtime.newContext(), calls: new Map(), handles: [] };
}
function free({ context, handles, calls }: Live) {
  for (const h of handles.reverse()) if (h.alive) h.dispose();
  for (const deferred of calls.values()) deferred.dispose();
  context.dispose();
}

let current: Live | undefined;
let nextCallId = 1;
let overMemory = () => false;

port.on('message', (message: ToWorker) => {
  if (message.t === 'run') return void run(message);
  const deferred = current?.calls.get(message.id);
  if (!current || !deferred) return;
  current.calls.delete(message.id);
  const { context } = deferred;
  const value = message.ok ? context.newString(message.json) : context.newError(message.message);
  try {
    if (message.ok) deferred.resolve(value);
    else deferred.reject(value);
  } finally {
    value.dispose();
  }
  current.runtime.executePendingJobs().dispose();
});

type Run = Extract<ToWorker, { t: 'run' }>;

async function run(message: Run): Promise<void> {
  Atomics.store(logsCut, 0, 0);
  const runtime = QuickJS.newRuntime();
  // QuickJS's own limit stops only one huge allocation here (quickjs-emscripten issue 255): the run's limit
  // is held on the WebAssembly memory's growth, checked at each interrupt poll and at the end.
  runtime.setMemoryLimit(message.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  const base = memory.buffer.byteLength;
  growRefused = false;
  engineBound = false;
  overMemory = () => growRefused || memory.buffer.byteLength - base > message.memoryBytes;
  runtime.setInterruptHandler(overMemory);
  const live = open(runtime);
  current = live;
  let outcome: WorkerOutcome;
  try {
    outcome = await execute(live, message);
  } catch (error) {
    // The engine failed (not the program); expected only when the thread's stack runs out inside QuickJS.
    const text = String((error as Error)?.message ?? error);
    outcome = /Maximum call stack size exceeded/.test(text)
      ? { ok: false, kind: 'stack', message: 'RangeError: stack overflow: recursion too deep' }
      : { ok: false, kind: 'internal', message: text };
  }
  current = undefined;
  // The handles and context are freed, the runtime is not: freeing one after a promise job ran the GC
  // aborts the module (quickjs-emscripten 235, 269). The pool retires a worker once its memory has grown.
  let reusable = !engineBound && !(!outcome.ok && ['memory', 'stack', 'internal'].includes(outcome.kind));
  try {
    if (reusable) free(live);
  } catch {
    reusable = false;
  }
  post({ t: 'done', outcome, reusable, wasmBytes: memory.buffer.byteLength });
}

async function execute({ runtime, context, calls, handles }: Live, message: Run): Promise<WorkerOutcome> {
  const keep = <T extends QuickJSHandle>(h: T): T => {
    handles.push(h);
    return h;
  };
  let lines = 0;
  let chars = 0;
  const log = keep(
    context.newFunction('log', (textHandle) => {
      // The guest has shortened the line already (prelude.ts).
      const text = context.getString(textHandle);
      if (lines >= LOG_LINES || chars + text.length > LOG_CHARS) return void Atomics.add(logsCut, 0, 1);
      lines++;
      chars += text.length;
      post({ t: 'log', text });
    }),
  );
  const call = keep(
    context.newFunction('call', (nameHandle, argsHandle) => {
      const id = nextCallId++;
      const deferred = context.newPromise();
      calls.set(id, deferred);
      post({ t: 'call', id, name: context.getString(nameHandle), args: context.getString(argsHandle) });
      // The library disposes the returned handle once the guest holds the promise.
      return deferred.handle;
    }),
  );
  const names = keep(context.newString(JSON.stringify(message.apiNames)));
  const install = context.evalCode(PRELUDE, 'helpers.js', { type: 'global' });
  if (install.error) return failure(context, keep(install.error), 'internal');
  const finishResult = context.callFunction(keep(install.value), context.undefined, call, log, names);
  if (finishResult.error) return failure(context, keep(finishResult.error), 'internal');
  const finish = keep(finishResult.value);

  const compiled = context.evalCode(`${PREFIX}${message.code}\n})`, 'program.js', { type: 'global' });
  if (compiled.error) return failure(context, keep(compiled.error), 'compile', message.code);
  const started = context.callFunction(finish, context.undefined, keep(compiled.value));
  if (started.error) return failure(context, keep(started.error), 'runtime', message.code);
  const settled = context.resolvePromise(keep(started.value));
  runtime.executePendingJobs().dispose();
  const result = await settled;
  if (result.error) return failure(context, keep(result.error), 'runtime', message.code);
  const answer = keep(result.value);
  const json = context.getString(keep(context.getProp(answer, 'json')));
  const note = keep(context.getProp(answer, 'note'));
  // Past the log's own bound too: it says what the program did not see.
  if (context.typeof(note) === 'string') post({ t: 'log', text: context.getString(note) });
  // Measured here, where the JSON is made: past the limit, it never crosses to the main thread.
  const size = `${json.length.toLocaleString('en-US')} characters of JSON`;
  if (json.length > message.maxAnswerChars) return { ok: false, kind: 'answer_too_large', message: size };
  if (overMemory()) return { ok: false, kind: 'memory', message: OVER_MEMORY };
  return { ok: true, json };
}

/** The program's error as an outcome: its kind, a message with a hint where one helps, its own line. */
function failure(
  context: QuickJSContext,
  errorHandle: QuickJSHandle,
  phase: 'compile' | 'runtime' | 'internal',
  code?: string,
): WorkerOutcome {
  const dumped = context.dump(errorHandle) as unknown;
  const isObject = typeof dumped === 'object' && dumped !== null;
  const error: { name?: unknown; message?: unknown; stack?: unknown } = isObject
    ? dumped
    : { message: dumped };
  const name = typeof error.name === 'string' ? error.name : '';
  const text =
    typeof error.message === 'string'
      ? error.message
      : error.message === undefined && isObject
        ? shown(dumped)
        : String(error.message ?? dumped);
  const where = code === undefined ? {} : positionOf(error.stack, code);
  let kind: FailureKind = phase === 'internal' ? 'internal' : 'runtime';
  let message = name ? `${name}: ${text}` : `Uncaught ${text}`;
  // A limit is what the host observed, never what a thrown value says; an error that reads as QuickJS's
  // own bound stays the program's error, but retires the worker.
  if (
    (name === 'InternalError' && /out of memory|stack overflow|too long/.test(text)) ||
    (name === 'RangeError' && /stack overflow|call stack/.test(text))
  )
    engineBound = true;
  if (overMemory()) {
    kind = 'memory';
    message = OVER_MEMORY;
  } else if (name === 'SyntaxError' && phase === 'compile') {
    kind = 'syntax';
    if (looksTyped(code ?? '', where.line))
      message += ' (write plain JavaScript: no type annotations, `as`, interfaces or type declarations)';
  }
  if (name === 'ReferenceError' && /is not defined/.test(text))
    message += `. The globals here: ${GLOBALS.join(', ')} and the JavaScript built-ins; no fetch, require, process, timers or file system (reach the API through api.*)`;
  // A thrown value may be megabytes: only its start crosses to the main thread.
  if (message.length > MESSAGE_MAX)
    message = `${message.slice(0, MESSAGE_MAX)}… (${message.length} characters in all)`;
  return { ok: false, kind, message, ...where };
}

/** A thrown value that is not an Error, as JSON (shortened), e.g. `throw { code: 1 }`. */
function shown(value: object): string {
  try {
    const json = JSON.stringify(value) ?? String(value);
    return json.length > 500 ? `${json.slice(0, 500)}…` : json;
  } catch {
    return String(value);
  }
}

/** Line and column of the first frame in the program, as the program was written. */
function positionOf(stack: unknown, code: string): { line?: number; column?: number } {
  const match = typeof stack === 'string' ? /program\.js:(\d+)(?::(\d+))?/.exec(stack) : null;
  if (!match) return {};
  const lines = code.split('\n');
  let line = Number(match[1]);
  let column = match[2] === undefined ? undefined : Number(match[2]);
  if (line === 1 && column !== undefined) column = Math.max(1, column - PREFIX.length);
  // Past the end (an unclosed brace is found at the wrapper's closing line): the program's last line.
  if (line > lines.length) {
    line = lines.length;
    column = (lines[line - 1]?.length ?? 0) + 1;
  }
  return column === undefined ? { line } : { line, column };
}

/** TypeScript near the error: an annotation, `as`, an interface or a type alias. */
const TYPED =
  /\b(interface|type)\s+[A-Za-z_$][\w$]*\s*(=|\{|<)|[\w)\]]\s*\??:\s*(string|number|boolean|any|unknown|void|never|object|Record|Array|Promise|[A-Z]\w*)\b|\bas\s+(const|any|unknown|string|number|boolean|[A-Z]\w*)\b|<[A-Z]\w*>\s*\(/;
const looksTyped = (code: string, line: number | undefined) =>
  TYPED.test(line === undefined ? code : (code.split('\n')[line - 1] ?? code));

// One small program through every part (prelude, helpers, JSON), so the first real run finds them compiled.
{
  const live = open(QuickJS.newRuntime());
  await execute(live, {
    t: 'run',
    code: 'return [sum([0.1, 0.2]), median([3, 1, 2]), sortBy([{ a: 2 }, { a: 1 }], "a")[0], typeof api.x]',
    apiNames: ['x'],
    memoryBytes: 16 * 1024 * 1024,
    maxAnswerChars: 1024,
  });
  free(live);
}
post({ t: 'ready' });
