import Foundation

/// The canonical JSON writer of a catalogue struct: `writeCanonicalJSON(into:)`, which writes what `encode(to:)`
/// has `JSONEncoder` write.
extension StructEmitter {
    /// Every key `encode(to:)` writes, flattened blocks' included, with the Swift path to its property
    /// (`user.id`), sorted as `JSONEncoder`'s `.sortedKeys` sorts them: by their UTF-8 bytes
    /// (`CanonicalJSONWriterTests` holds the two to each other). Nil when a flattened block is no shared struct of
    /// the catalogue, so that its keys are unknown here.
    func canonicalMembers() -> [(key: String, path: String, property: Property)]? {
        var members: [(key: String, path: String, property: Property)] = []
        func collect(_ item: Struct, prefix: String) -> Bool {
            for property in item.properties {
                if let key = property.key {
                    members.append((key, prefix + property.name, property))
                } else if case .flattened(let name) = property.type, let block = blocks[name] {
                    guard collect(block, prefix: prefix + property.name + ".") else { return false }
                } else {
                    return false
                }
            }
            return true
        }
        guard collect(item, prefix: "") else { return nil }
        return members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// `writeCanonicalJSON(into:)`: the struct as `encode(to:)` has `JSONEncoder` (`.sortedKeys`,
    /// `.withoutEscapingSlashes`) write it, written straight to a `CanonicalJSONWriter`. A payload's also takes
    /// the message's `t`, which `BCResponse.encode(to:)` writes among the payload's keys.
    func canonicalJSON(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = [
            pad + "/// The JSON `encode(to:)` gives under `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`), written",
            pad + "/// directly" + (isPayload ? "; `t`, when given, among the keys as `BCResponse` writes it." : "."),
        ]
        let tParameter = isPayload ? ", t: Int? = nil" : ""
        lines.append(pad + "public func writeCanonicalJSON(into writer: inout CanonicalJSONWriter\(tParameter)) {")
        guard let found = canonicalMembers() else {
            // A block the catalogue does not declare: its keys are not known here, JSONEncoder knows them.
            lines.append(pad + "    // A flattened block the catalogue does not declare: JSONEncoder writes it.")
            lines.append(pad + "    writer.appendEncoded(self" + (isPayload ? ", t: t)" : ")"))
            lines.append(pad + "}")
            return lines
        }
        lines.append(pad + "    writer.beginObject()")
        var members = found.map { (key: $0.key, line: Optional(member($0.path, $0.key, $0.property))) }
        if isPayload {
            members.append((key: "t", line: nil))
            members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        for member in members {
            if let line = member.line {
                lines += line.map { pad + "    " + $0 }
            } else {
                lines.append(pad + "    if let t {")
                lines.append(pad + "        writer.key(\"t\")")
                lines.append(pad + "        writer.int(t)")
                lines.append(pad + "    }")
            }
        }
        lines.append(pad + "    writer.endObject()")
        lines.append(pad + "}")
        return lines
    }

    /// The lines that write one member: its key and value, or nothing when an optional is nil.
    func member(_ path: String, _ key: String, _ property: Property) -> [String] {
        let value = property.isOptional ? "value" : path
        let write = "writer.key(\"\(key)\")"
        let body: [String]
        switch property.type {
        case .string: body = [write, "writer.string(\(value))"]
        case .int: body = [write, "writer.int(\(value))"]
        case .bool: body = [write, "writer.flag(\(value))"]
        case .double: body = [write, "writer.double(\(value))"]
        case .strings: body = [write, "writer.strings(\(value))"]
        case .ints: body = [write, "writer.ints(\(value))"]
        case .stringDictionary: body = [write, "writer.stringDictionary(\(value))"]
        case .openEnum, .forcibleOpenEnum: body = [write, "writer.int(\(value).rawValue)"]
        case .object: body = [write, "\(value).writeCanonicalJSON(into: &writer)"]
        case .objects:
            body = [write, "writer.beginArray()", "for element in \(value) {", "    writer.element()",
                    "    element.writeCanonicalJSON(into: &writer)", "}", "writer.endArray()"]
        case .flattened: fatalError("flattened blocks are inlined by canonicalMembers()")
        }
        guard property.isOptional else { return body }
        return ["if let value = \(path) {"] + body.map { "    " + $0 } + ["}"]
    }
}
