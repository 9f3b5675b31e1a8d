"""Validates NDJSON lines (stdin) against a JSON Schema (2020-12) with the `jsonschema` package, as a consumer of
`bcstream ... --format ndjson` or of the fleet's stream would.

    python3 ndjson_validate.py SCHEMA.json < lines.ndjson

Prints `invalid <line number>: <reason>` for each line the schema rejects, then `checked <lines> invalid <count>`.
Exits 2 when the schema itself is not a valid 2020-12 schema.
"""
import json
import sys

import jsonschema


def validator(path):
    with open(path, encoding="utf-8") as file:
        schema = json.load(file)
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        print(f"schema error: {error.message}")
        sys.exit(2)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def main():
    check = validator(sys.argv[1])
    lines = invalid = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        lines += 1
        error = jsonschema.exceptions.best_match(check.iter_errors(json.loads(line)))
        if error is not None:
            invalid += 1
            print(f"invalid {number}: {error.message[:300]}")
    print(f"checked {lines} invalid {invalid}")


if __name__ == "__main__":
    main()
