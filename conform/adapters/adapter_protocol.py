"""The adapter side of adlang's conformance protocol (docs/conform.md), for adapters in Python.

An adapter greets once, then answers one JSON line per request: it runs the exported module's
entries (main, gradient) on the arguments and sends back each value or the error it raised.
`serve(system, language, prepare)` is the whole loop; `prepare(namespace)` may change the
module's namespace after it is loaded (a deliberately wrong adapter, in the tests, does).
"""
import json
import sys
import threading


def _answer(request, prepare):
    namespace = {"__name__": "adlang_exported"}
    try:
        exec(compile(request["source"], "<exported>", "exec"), namespace)
    except Exception as e:  # a module that does not load fails every call, and only them
        error = {"error": "the module does not load: %s: %s" % (type(e).__name__, e)}
        return {"id": request["id"], "results": [error for _ in request["calls"]]}
    if prepare is not None:
        prepare(namespace)
    results = []
    for call in request["calls"]:
        try:
            args = [namespace["_from_json"](a) for a in call["args"]]
            value = namespace[call["entry"]](*args)
            results.append({"value": namespace["_to_json"](value)})
        except RecursionError:
            results.append({"error": "RecursionError: the recursion is deeper than Python's stack"})
        except Exception as e:  # the system's error is the answer, whatever it is
            results.append({"error": "%s: %s" % (type(e).__name__, e)})
    return {"id": request["id"], "results": results}


def _loop(system, language, prepare):
    out = sys.stdout
    out.write(json.dumps({"protocol": "adlang-conform/1", "system": system,
                          "language": language}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        out.write(json.dumps(_answer(json.loads(line), prepare)) + "\n")
        out.flush()


def serve(system, language, prepare=None):
    # Deep recursion (the generated programs recurse) needs a large stack and limit.
    sys.setrecursionlimit(200000)
    threading.stack_size(512 * 1024 * 1024)
    worker = threading.Thread(target=_loop, args=(system, language, prepare))
    worker.start()
    worker.join()
