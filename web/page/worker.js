// The playground's worker: the WebAssembly module (adlang_playground.js) runs the commands
// here, so the page stays responsive, and Stop can end a long run by terminating the worker.
importScripts('adlang_playground.js');
const ready = createAdlang();
ready.then(() => postMessage({ready: true}),
           (e) => postMessage({ready: false, error: String(e)}));
onmessage = async (e) => {
  const m = await ready;
  const {id, command, source, env, precision, wrt} = e.data;
  const r = m.run(command, source, env, precision, wrt);
  postMessage({id, stdout: r.stdout, stderr: r.stderr, exit_code: r.exit_code});
};
