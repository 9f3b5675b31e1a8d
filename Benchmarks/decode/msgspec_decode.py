"""The decoding peer: msgspec, typed Structs with a tagged union on `t`, over the same corpus bcstream decodes.

    python3 msgspec_decode.py --schema SCHEMA.json --corpus FILE [--seconds S]

The Structs are built at start from the catalogue's JSON Schema (`bcstream-codegen --json-schema`), so they
declare exactly the kinds and keys BCStream's model declares, no more and no less:
- each kind is a Struct tagged `t=<its number>` (a tagged union: msgspec picks the Struct by `t`);
- the user block (`allOf: User`) is flattened into the kind, as on the wire;
- a key the schema types as "string or number" is `str | int | float`, "integer or string" is `int | str`,
  a flag is `bool | int | str`: msgspec accepts either form, as BCStream's Forcible wrappers do (it keeps the
  form it saw where BCStream converts, so it does no more work than BCStream);
- a message whose `t` is no known kind, or that the union refuses, is decoded untyped (`msgspec.json.decode`),
  as BCStream keeps such a message as `.unknown`.

It prints one JSON line: messages/s, MB/s, how many messages went through the union and how many fell back.
Time is this process's CPU time (pin it with `taskset -c 0` beside `bcstream-bench`).
"""
import argparse
import json
import sys
import time
from typing import Optional, Union

import msgspec

SCALARS = {
    ("string", "number"): Union[str, int, float],
    ("number", "string"): Union[str, int, float],
    ("integer", "string"): Union[int, str],
    ("string", "integer"): Union[int, str],
    ("number",): Union[int, float, str],
    ("integer",): Union[int, str],
    ("string",): Union[str, int, float],
    ("boolean",): Union[bool, int, str],
}


class Builder:
    def __init__(self, schema):
        self.defs = schema["$defs"]
        self.built = {}

    def scalar(self, spec):
        types = spec.get("type")
        if isinstance(types, str):
            types = [types]
        types = tuple(types or ())
        if "boolean" in types:
            return Union[bool, int, str]
        if "object" in types and "additionalProperties" in spec:
            return dict[str, Union[str, int, float]]
        if "array" in types:
            return list[self.field_type(spec.get("items", {}))]
        return SCALARS.get(types, msgspec.Raw)

    def field_type(self, spec):
        if "$ref" in spec:
            return self.struct(spec["$ref"].split("/")[-1])
        if "oneOf" in spec or "anyOf" in spec:
            return msgspec.Raw
        if spec.get("type") == "array" or (isinstance(spec.get("type"), list) and "array" in spec["type"]):
            return list[self.field_type(spec.get("items", {}))]
        return self.scalar(spec)

    def fields(self, definition):
        properties = {}
        required = set(definition.get("required", []))
        for part in definition.get("allOf", []):
            inner = self.defs[part["$ref"].split("/")[-1]]
            inner_properties, inner_required = self.fields(inner)
            properties.update(inner_properties)
            required |= inner_required
        properties.update(definition.get("properties", {}))
        return properties, required

    def struct(self, name, tag=None):
        key = (name, tag)
        if key in self.built:
            return self.built[key]
        definition = self.defs[name]
        properties, required = self.fields(definition)
        fields = []
        for wire_key, spec in properties.items():
            if wire_key == "t" and tag is not None:
                continue
            kind = self.field_type(spec)
            if wire_key in required:
                fields.append((wire_key, kind))
            else:
                fields.append((wire_key, Optional[kind], None))
        fields.sort(key=lambda field: len(field) == 3)  # required before optional, as Python wants
        python_name = "K_" + name.replace(".", "_") + (f"_{tag}" if tag is not None else "")
        options = {"tag_field": "t", "tag": tag} if tag is not None else {}
        struct = msgspec.defstruct(python_name, fields, **options)
        self.built[key] = struct
        return struct

    def union(self, schema):
        members = []
        for entry in schema["oneOf"]:
            t = entry["properties"]["t"]["const"]
            refs = entry.get("allOf", [])
            if refs:
                members.append(self.struct(refs[0]["$ref"].split("/")[-1], tag=t))
            else:
                members.append(msgspec.defstruct(f"K_bare_{t}", [], tag_field="t", tag=t))
        return Union[tuple(members)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--corpus", required=True, help="one message per line")
    parser.add_argument("--seconds", type=float, default=2.0)
    arguments = parser.parse_args()

    with open(arguments.schema, "rb") as file:
        schema = json.load(file)
    with open(arguments.corpus, "rb") as file:
        messages = [line.rstrip(b"\r\n") for line in file if line.strip()]
    decoder = msgspec.json.Decoder(Builder(schema).union(schema))
    untyped = msgspec.json.Decoder()

    def decode_all():
        fallbacks = 0
        for message in messages:
            try:
                decoder.decode(message)
            except msgspec.ValidationError:
                untyped.decode(message)
                fallbacks += 1
        return fallbacks

    fallbacks = decode_all()  # warm-up, and the count of messages the union refused
    passes = 0
    start = time.process_time()
    while True:
        decode_all()
        passes += 1
        spent = time.process_time() - start
        if spent >= arguments.seconds:
            break
    total = passes * len(messages)
    size = sum(len(message) for message in messages)
    print(json.dumps({
        "decoder": f"msgspec {msgspec.__version__} (Python {sys.version.split()[0]})",
        "messages_per_second": total / spent,
        "megabytes_per_second": passes * size / spent / 1e6,
        "messages": len(messages),
        "typed": len(messages) - fallbacks,
        "untyped": fallbacks,
    }))


if __name__ == "__main__":
    main()
