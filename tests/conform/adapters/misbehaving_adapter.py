"""A test adapter that misbehaves on request (tests/conform/adapter_test.cpp): it answers the
entry `echo` with its first argument, and on the entry `malformed` sends a line that is not
JSON, on `hang` never answers, on `crash` exits with status 3."""
import json
import sys
import time

sys.stdout.write(json.dumps({"protocol": "adlang-conform/1", "system": "misbehaving 1",
                             "language": "python"}) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    entries = [c["entry"] for c in request["calls"]]
    if "malformed" in entries:
        sys.stdout.write("this is not JSON\n")
    elif "hang" in entries:
        time.sleep(3600)
    elif "crash" in entries:
        sys.stderr.write("the misbehaving adapter crashes on purpose\n")
        sys.exit(3)
    else:
        results = [{"value": c["args"][0]} for c in request["calls"]]
        sys.stdout.write(json.dumps({"id": request["id"], "results": results}) + "\n")
    sys.stdout.flush()
