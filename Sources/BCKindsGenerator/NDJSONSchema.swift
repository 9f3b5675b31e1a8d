import Foundation

extension KindsGenerator {
    /// The JSON Schema (draft 2020-12) of one line of `bcstream decode|listen --format ndjson` and of one message
    /// the fleet publishes: a decoded message (`t`, `kind`, `message`: the canonical JSON of its payload, one
    /// definition per kind, chosen by `t`), a message of a kind the model does not know (`kind` `unknown`, `raw`:
    /// the object as received), or an error line (`error`, `raw`: the text as received). `key` names the channel
    /// (listen, the fleet), `backlog` marks a comment of the backlog, `receivedAt` is the fleet's (ISO 8601, UTC).
    ///
    /// Unlike `jsonSchema(for:)`, which describes what the service sends (a count may be `"3"`), this describes
    /// what BCStream writes: every value in the one form its Swift type gives (`CanonicalJSONWriter`): integers as
    /// integers, flags as `0` or `1`, absent optionals left out.
    public static func ndjsonSchema(for catalogue: Catalogue) throws -> String {
        var definitions = schemaDefinitions(for: catalogue) { type in
            switch type {
            case .string: ["type": "string"]
            case .int, .openEnum, .forcibleOpenEnum: ["type": "integer"]
            case .bool: ["enum": [0, 1]]
            case .double: ["type": "number"]
            case .strings: ["type": "array", "items": ["type": "string"]]
            case .ints: ["type": "array", "items": ["type": "integer"]]
            case .stringDictionary: ["type": "object", "additionalProperties": ["type": "string"]]
            case .object, .objects, .flattened: fatalError("a reference, made by schemaDefinitions")
            }
        }
        let byT: [[String: Any]] = catalogue.kinds.map { kind in
            var message: [String: Any] = [
                "type": "object", "properties": ["t": ["const": kind.t]], "required": ["t"],
            ]
            if case .declared(let payload) = kind.payload { message["allOf"] = [["$ref": "#/$defs/\(payload.name)"]] }
            return [
                "if": ["properties": ["t": ["const": kind.t]]],
                "then": ["properties": ["kind": ["const": kind.name], "message": message]],
            ]
        }
        let known = Set(catalogue.kinds.map(\.t)).sorted()
        let shared: [String: Any] = [
            "key": ["type": "string", "description": "The channel's key (listen, the fleet)."],
            "backlog": ["const": true, "description": "A comment of the backlog sent on subscribing."],
            "receivedAt": ["type": "string", "format": "date-time",
                           "description": "When the fleet's worker received it: ISO 8601, UTC, milliseconds."],
        ]
        func line(_ properties: [String: Any], required: [String], description: String) -> [String: Any] {
            ["type": "object", "description": description, "properties": properties.merging(shared) { mine, _ in mine },
             "required": required, "additionalProperties": false]
        }
        definitions["line.message"] = line([
            "t": ["enum": known], "kind": ["type": "string"],
            "message": ["type": "object", "description": "The payload's canonical JSON, as its kind's definition."],
        ], required: ["t", "kind", "message"], description: "A message of a kind the model knows.")
            .merging(["allOf": byT]) { mine, _ in mine }
        definitions["line.unknown"] = line([
            "t": ["type": "integer"], "kind": ["const": "unknown"],
            "raw": ["type": "object", "description": "The message as received, numbers kept as written."],
        ], required: ["t", "kind", "raw"], description: "A message of a kind the model does not know: kept whole.")
        definitions["line.error"] = line([
            "t": ["type": "integer"], "kind": ["type": "string"],
            "source": ["type": "string", "description": "decode: the file and line."],
            "error": ["type": "string", "description": "What did not decode, and where."],
            "raw": ["type": "string", "description": "The frame or line as received."],
        ], required: ["error"], description: "A frame or line that did not decode.")
        let document: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "bcstream NDJSON line",
            "description": "One line of `bcstream decode|listen --format ndjson`, one message of the fleet's "
                + "JetStream stream (docs/fleet-stream.md). Generated from Catalogue/.",
            "oneOf": [["$ref": "#/$defs/line.message"], ["$ref": "#/$defs/line.unknown"],
                      ["$ref": "#/$defs/line.error"]],
            "$defs": definitions,
        ]
        return try schemaText(document)
    }

    /// `BCType.ndjsonSchema`: the schema above as a string of BCMessages, so that `bcstream types --format
    /// json-schema` prints it without the generator.
    static func ndjsonSchemaFile(for catalogue: Catalogue) throws -> GeneratedFile {
        let schema = try ndjsonSchema(for: catalogue)
        precondition(!schema.contains("\"##"), "the schema would end the raw string early")
        var lines = header(source: "Catalogue/ (KindsGenerator.ndjsonSchema)")
        lines += [
            "extension BCType {",
            "    /// The JSON Schema (2020-12) of one line of `--format ndjson` and one message of the fleet's stream",
            "    /// (docs/fleet-stream.md): `bcstream types --format json-schema` prints it.",
            "    public static let ndjsonSchema = ##\"\"\"",
        ]
        lines += schema.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        lines += ["    \"\"\"##", "}"]
        return GeneratedFile(path: "BCType+NDJSONSchema" + suffix, contents: lines.joined(separator: "\n") + "\n")
    }
}
