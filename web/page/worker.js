// The playground's worker: the WebAssembly module (adlang_playground.js) runs the commands
// here, so the page stays responsive, and Stop can end a long run by terminating the worker.
// Messages in: {id, request} (Module.run) or {id, check} (Module.check); out: {ready, properties,
// fuel} (the property names, the default fuel of each precision),
// {id, progress: {property, tried, passed, failed, both_undefined, discarded, seconds, total}}
// during a check (the property's counts so far), and {id, stdout, stderr, exit_code, error}
// (error: the failure's name, empty on success).
importScripts('adlang_playground.js');
const ready = createAdlang();
const precisions = ['double', '50', '100', 'exact'];
ready.then((m) => postMessage({ready: true, properties: m.properties().split('\n').filter(Boolean),
                               fuel: Object.fromEntries(precisions.map((p) => [p, m.default_fuel(p)]))}))
    .catch((e) => postMessage({ready: false, error: String(e)}));
onmessage = async (e) => {
  const m = await ready;
  const {id, request, check} = e.data;
  let r;
  try {
    if (check) {
      r = m.check(check.property, check.count, check.seed, check.precision, check.editor,
                  check.source, check.env, (counts, total) =>
                      postMessage({id, progress: {...counts, total}}));
    } else {
      r = m.run(request);
    }
  } catch (err) {
    // The commands report their errors themselves; what reaches here unwound the module's
    // frames without running their destructors, so the page replaces this worker (`restart`).
    // The engine's own stack (about 1 MB, not the module's memory) can run out before the
    // module's guards see it (support/stack.hpp).
    const stack = err instanceof RangeError && /call stack/.test(err.message);
    r = {stdout: '',
         stderr: stack ? 'adlang: error: undefined: the browser\'s stack is exhausted (the ' +
                             'program recurses deeper than the page can follow; the adlang ' +
                             'command evaluates on a 4 GiB stack)\n'
                       : 'adlang: internal error in the page: ' + String(err) + '\n',
         exit_code: stack ? 1 : 5,  // support/exit_codes.hpp: kExitUndefined, kExitInternalError
         error: stack ? 'Undefined' : 'InternalError'};  // driver/error_kind.hpp: error_name
    postMessage({id, stdout: r.stdout, stderr: r.stderr, exit_code: r.exit_code, error: r.error,
                 restart: true});
    return;
  }
  postMessage({id, stdout: r.stdout, stderr: r.stderr, exit_code: r.exit_code, error: r.error});
};
