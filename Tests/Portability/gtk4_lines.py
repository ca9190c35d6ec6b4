"""What the checks read of gtk4_sees.py: its JSON lines, until one whose monitors satisfy a predicate. Shared by
deb_checks.py (a script) and portability_check.py (pytest), which each say a miss in their own way."""
import json
import select
import time


def first_match(client, predicate, bound=20.0):
    """The first "monitors" line within `bound` seconds whose monitors, by connector, satisfy `predicate`, or
    None; and every line read (for the message of a miss)."""
    deadline = time.monotonic() + bound
    seen = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([client.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = client.stdout.readline()
        if not line:
            break
        event = json.loads(line)
        seen.append(event)
        if event.get("event") == "monitors" and predicate({m["connector"]: m for m in event["monitors"]}):
            return event, seen
    return None, seen
