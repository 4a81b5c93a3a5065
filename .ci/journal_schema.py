#!/usr/bin/env python3
"""Validates journal lines against docs/journal.schema.json with the `jsonschema` package.

    python3 .ci/journal_schema.py SCHEMA JOURNAL...            every line of every journal must be valid
    python3 .ci/journal_schema.py --verdicts SCHEMA FILE        prints "LINE<TAB>valid" or "LINE<TAB>invalid<TAB>why"

A line is valid when it is JSON under the rules every journal reader applies
(strict UTF-8, no duplicate keys, no unpaired surrogates, no NaN, integers
written as integers, at most 1 MiB and 64 levels deep, a real calendar date,
controller ids of at most 256 UTF-8 bytes) and the schema accepts it. Those
rules are the ones JSON Schema cannot state; docs/journal-format.md lists them.
Blank lines and a final line without a line end are not event lines and are skipped.
"""
import datetime
import decimal
import json
import sys

from jsonschema import Draft202012Validator

MAX_LINE_BYTES = 1 << 20
MAX_DEPTH = 64
ID_KEYS = {
    "alloc": ["controller"], "root": ["controller"], "link": ["from", "to"], "unlink": ["from"],
    "modal": ["controller", "presenter"], "touches": ["controller"], "pan": ["controller"],
    "move": ["from", "to"], "lifecycle": ["controller"], "dealloc": ["controller"],
}


class Refused(Exception):
    pass


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Refused(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def no_constants(name):
    raise Refused(f"{name} is not JSON")


def check_strings_and_depth(value, depth=1):
    """Refuses unpaired surrogates and containers nested deeper than the limit (the line's object is depth 1)."""
    if isinstance(value, str):
        value.encode("utf-8")  # an unpaired surrogate raises UnicodeEncodeError
        return
    if not isinstance(value, (dict, list)):
        return
    if depth > MAX_DEPTH:
        raise Refused(f"nesting deeper than {MAX_DEPTH}")
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(key, str):
            key.encode("utf-8")
        check_strings_and_depth(item, depth + 1)


def parse(raw):
    """The line's object under the reading rules outside the schema; raises Refused."""
    if len(raw) > MAX_LINE_BYTES:
        raise Refused("line longer than 1 MiB")
    try:
        text = raw.decode("utf-8")
        value = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants,
                           parse_float=decimal.Decimal)
        check_strings_and_depth(value)
    except (UnicodeError, ValueError, RecursionError) as error:
        raise Refused(str(error)[:200])
    if not isinstance(value, dict):
        return value  # the schema refuses it
    time = value.get("time")
    if isinstance(time, str) and len(time) >= 10:
        try:
            datetime.date(int(time[0:4]), int(time[5:7]), int(time[8:10]))
        except ValueError as error:
            if time[0:4].isdigit() and time[5:7].isdigit() and time[8:10].isdigit():
                raise Refused(f"time: {error}")
    for key in ID_KEYS.get(value.get("type"), []):
        if isinstance(value.get(key), str) and len(value[key].encode("utf-8")) > 256:
            raise Refused(f"{key}: more than 256 UTF-8 bytes")
    return value


def verdict(validator, raw):
    """None when the line is valid, else why not."""
    try:
        value = parse(raw)
    except Refused as error:
        return str(error)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    return errors[0].message[:200] if errors else None


def event_lines(path):
    """(line number, bytes) of every line that is an event line: not blank, ended by a line feed."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    for number, raw in enumerate(lines[:-1], start=1):
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if raw.strip(b" \t"):
            yield number, raw


def main(arguments):
    if arguments[:1] == ["--verdicts"] and len(arguments) == 3:
        validator = Draft202012Validator(json.load(open(arguments[1])))
        out = sys.stdout
        for number, raw in event_lines(arguments[2]):
            why = verdict(validator, raw)
            out.write(f"{number}\tvalid\n" if why is None else f"{number}\tinvalid\t{' '.join(why.split())}\n")
        return 0
    if len(arguments) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    schema = json.load(open(arguments[0]))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = 0
    total = 0
    for path in arguments[1:]:
        for number, raw in event_lines(path):
            total += 1
            why = verdict(validator, raw)
            if why is not None:
                failures += 1
                print(f"{path}:{number}: {why}")
    print(f"schema: {total} lines in {len(arguments) - 1} journals, {failures} invalid")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
