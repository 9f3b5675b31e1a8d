import Foundation

extension KindsGenerator {
    /// The catalogue as a JSON Schema (draft 2020-12) of one message: `oneOf` the kinds, each its `t` and its
    /// payload's keys, each key with the JSON forms its `Forcible` rule accepts. For people and tools outside
    /// Swift; `bcstream-codegen --json-schema` prints it.
    public static func jsonSchema(for catalogue: Catalogue) throws -> String {
        let definitions = schemaDefinitions(for: catalogue) { type in
            switch type {
            case .string: ["type": ["string", "number"]]
            case .int, .openEnum, .forcibleOpenEnum: ["type": ["integer", "string"]]
            case .bool: ["type": ["boolean", "integer", "string"]]
            case .double: ["type": ["number", "string"]]
            case .strings: ["type": "array", "items": ["type": ["string", "number"]]]
            case .ints: ["type": "array", "items": ["type": ["integer", "string"]]]
            case .stringDictionary: ["type": "object", "additionalProperties": ["type": ["string", "number"]]]
            case .object, .objects, .flattened: fatalError("a reference, made by schemaDefinitions")
            }
        }
        let kinds = catalogue.kinds.map { kind -> [String: Any] in
            var schema: [String: Any] = [
                "title": kind.name, "description": kind.meaning, "type": "object",
                "properties": ["t": ["const": kind.t]], "required": ["t"],
            ]
            if case .declared(let payload) = kind.payload { schema["allOf"] = [["$ref": "#/$defs/\(payload.name)"]] }
            return schema
        }
        let document: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "bcsvr message",
            "description": "One message of the bcsvr channel, by its kind t. Generated from Catalogue/.",
            "oneOf": kinds,
            "$defs": definitions,
        ]
        return try schemaText(document)
    }

    /// A schema document as text: pretty, keys sorted (the same catalogue gives the same text), slashes as such.
    static func schemaText(_ document: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One definition per struct of the catalogue (payloads, their nested structs by `Payload.Nested`, shared
    /// blocks), each key typed by `scalar` (every type but the references, which are made here: a struct the
    /// catalogue does not declare is any JSON value); a flattened block's keys are the struct's own (`allOf`).
    static func schemaDefinitions(for catalogue: Catalogue, scalar: (PropertyType) -> [String: Any]) -> [String: Any] {
        var structs: [String: Struct] = [:]
        func collect(_ item: Struct, as name: String) {
            structs[name] = item
            for nested in item.nested { collect(nested, as: name + "." + nested.name) }
        }
        for kind in catalogue.kinds { if case .declared(let payload) = kind.payload { collect(payload, as: payload.name) } }
        for item in catalogue.shared { collect(item, as: item.name) }

        func reference(_ name: String, from scope: String) -> [String: Any] {
            var scope = scope
            while !scope.isEmpty {
                if structs[scope + "." + name] != nil { return ["$ref": "#/$defs/\(scope).\(name)"] }
                scope = scope.contains(".") ? String(scope[..<scope.lastIndex(of: ".")!]) : ""
            }
            return structs[name] != nil ? ["$ref": "#/$defs/\(name)"] : [:]
        }
        func schema(_ property: Property, scope: String) -> [String: Any] {
            switch property.type {
            case .object(let name), .flattened(let name): reference(name, from: scope)
            case .objects(let name): ["type": "array", "items": reference(name, from: scope)]
            default: scalar(property.type)
            }
        }
        var definitions: [String: Any] = [:]
        for (name, item) in structs {
            var properties: [String: Any] = [:]
            var required: [String] = []
            var flattened: [[String: Any]] = []
            for property in item.properties {
                guard let key = property.key else {
                    flattened.append(schema(property, scope: name))
                    continue
                }
                var value = schema(property, scope: name)
                value["description"] = property.doc
                properties[key] = value
                if !property.isOptional { required.append(key) }
            }
            var definition: [String: Any] = [
                "type": "object", "description": item.doc, "properties": properties, "required": required,
            ]
            if !flattened.isEmpty { definition["allOf"] = flattened }
            definitions[name] = definition
        }
        return definitions
    }
}
