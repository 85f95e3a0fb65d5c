/**
 * The body of the JavaScript sandbox's worker thread, as CommonJS source. It is started with
 * `new Worker(source, { eval: true })`, which runs the same way from TypeScript sources (tests,
 * tsx) and from the compiled build. It receives `{ id, script, json, names, timeoutMs,
 * memoryLimitBytes, stackBytes }`, runs the script in a fresh QuickJS runtime and answers
 * `{ id, ok, value }` or `{ id, ok: false, reason }`. When the engine itself misbehaves it answers
 * and exits, and the main thread starts a new worker.
 */
export const JAVASCRIPT_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const quickjs = require(workerData.modulePath);
const modulePromise = quickjs.newQuickJSWASMModule();

function describeError(dumped) {
  if (dumped && typeof dumped === 'object') {
    const name = dumped.name;
    const message = dumped.message;
    if (name === 'InternalError' && message === 'interrupted') return 'interrupted';
    if (typeof message === 'string') return typeof name === 'string' && name !== '' ? name + ': ' + message : message;
  }
  return String(dumped);
}

function defineGlobals(vm, json, names) {
  const text = vm.newString(json);
  const jsonObject = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(jsonObject, 'parse');
  const parsed = vm.callFunction(parse, vm.undefined, text);
  text.dispose();
  parse.dispose();
  jsonObject.dispose();
  const values = vm.unwrapResult(parsed);
  try {
    for (const name of names) {
      const value = vm.getProp(values, name);
      vm.setProp(vm.global, name, value);
      value.dispose();
    }
  } finally {
    values.dispose();
  }
}

async function run(request) {
  const module = await modulePromise;
  const runtime = module.newRuntime();
  let reply;
  let fatal = false;
  try {
    runtime.setMemoryLimit(request.memoryLimitBytes);
    runtime.setMaxStackSize(request.stackBytes);
    const vm = runtime.newContext();
    try {
      defineGlobals(vm, request.json, request.names);
      runtime.setInterruptHandler(quickjs.shouldInterruptAfterDeadline(Date.now() + request.timeoutMs));
      const result = vm.evalCode(request.script, 'expression.js');
      if (result.error) {
        const reason = describeError(vm.dump(result.error));
        result.error.dispose();
        reply = { ok: false, reason };
      } else {
        const value = vm.dump(result.value);
        result.value.dispose();
        reply = { ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value) ?? 'null') };
      }
    } finally {
      vm.dispose();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    reply = { ok: false, reason: /Maximum call stack|stack overflow/i.test(reason) ? 'stack overflow' : 'sandbox failure: ' + reason };
    fatal = true;
  } finally {
    try {
      runtime.dispose();
    } catch {
      fatal = true;
    }
  }
  return { reply, fatal };
}

parentPort.on('message', (request) => {
  run(request).then(
    ({ reply, fatal }) => {
      parentPort.postMessage({ id: request.id, ...reply });
      if (fatal) process.exit(1);
    },
    (error) => {
      parentPort.postMessage({ id: request.id, ok: false, reason: 'sandbox failure: ' + (error && error.message ? error.message : String(error)) });
      process.exit(1);
    },
  );
});
`;
