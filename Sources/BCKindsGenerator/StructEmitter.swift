import Foundation

/// The Swift of one catalogue struct: declaration, memberwise init, `CodingKeys`, `init(from:)`,
/// `encode(to:)` (the canonical wire form) and the fast engine's `init(tape:)`.
struct StructEmitter {
    let item: Struct
    /// `BCResponse.Quiz` for `Info`: the type the struct is declared in.
    let parent: String
    /// True for a kind's payload (`BCPayload`), false for a nested or shared struct (plain `Codable`).
    let isPayload: Bool
    /// Every struct the catalogue declares, qualified (`BCResponse.Avatar.Item`): `init(tape:)` lives in an
    /// extension, where a sibling's name is not in scope and must be written in full.
    let known: Set<String>
    /// The shared structs a `.flattened` property names (`User`, `CommentAttributes`), by name: their keys are
    /// written among the struct's own by `writeCanonicalJSON(into:)`.
    var blocks: [String: Struct] = [:]

    var qualifiedName: String { parent + "." + item.name }
    var keyed: [Property] { item.properties.filter { $0.key != nil } }
    var flattened: [Property] { item.properties.filter { $0.key == nil } }

    var conformances: String {
        guard isPayload else { return "Hashable, Sendable, Codable" }
        let names = Set(item.properties.map(\.name))
        if names.contains("attributes") && names.contains("user") { return "CommentClassPayload" }
        if names.contains("user") { return "BCPayload, UserAttributed" }
        return "BCPayload"
    }

    /// The declaration, at `indent`.
    func declaration(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let inner = indent + 4
        let innerPad = pad + "    "
        var lines = SwiftText.doc(item.doc, indent: indent)
        lines.append(pad + "public struct \(item.name): \(conformances) {")
        if usesStorage { lines += SwiftText.comment(Self.storageNote, indent: inner) + [""] }
        for property in item.properties {
            let doc = property.key.map { "`\($0)`: " + property.doc } ?? property.doc
            lines += SwiftText.doc(doc, indent: inner)
            guard usesStorage, let storage = Self.storage(property) else {
                let wrapper = Self.wrapper(property).map { $0 + " " } ?? ""
                lines.append(innerPad + "\(wrapper)public var \(property.name): \(Self.swiftType(property))")
                continue
            }
            let name = property.name
            let type = Self.swiftType(property)
            let oneLine = "public var \(name): \(type) { get { _\(name).wrappedValue } set { _\(name).wrappedValue = newValue } }"
            if innerPad.count + oneLine.count <= SwiftText.width {
                lines.append(innerPad + oneLine)
            } else {
                lines.append(innerPad + "public var \(name): \(type) {")
                lines.append(innerPad + "    get { _\(name).wrappedValue }")
                lines.append(innerPad + "    set { _\(name).wrappedValue = newValue }")
                lines.append(innerPad + "}")
            }
            lines.append(innerPad + "var _\(name): \(storage)")
        }
        if !usesStorage {
            lines.append("")
            lines += memberwiseInit(indent: inner)
        }
        if !keyed.isEmpty {
            lines.append("")
            lines.append(innerPad + "enum CodingKeys: String, CodingKey {")
            for property in keyed {
                lines.append(innerPad + "    " + SwiftText.codingKey(property.name, property.key!))
            }
            lines.append(innerPad + "}")
        }
        if !usesStorage {
            lines.append("")
            lines += initFromDecoder(indent: inner)
        }
        lines.append("")
        lines += encode(indent: inner)
        lines.append("")
        lines += canonicalJSON(indent: inner)
        for nested in item.nested {
            lines.append("")
            lines += StructEmitter(item: nested, parent: qualifiedName, isPayload: false, known: known, blocks: blocks)
                .declaration(indent: inner)
        }
        lines.append(pad + "}")
        return lines
    }

    /// Why a struct with Forcible properties stores the wrappers itself, said once above the storage.
    static let storageNote = """
        Each Forcible property is stored in its wrapper (`_text: ForcibleString`, what `@ForcibleString` would \
        keep), as a plain stored property: the compiler's memberwise initializer then builds the struct in place. \
        Through property wrappers every initializer copied the whole struct once more, each String retained and \
        released again. The initializers are in the extension below.
        """

    /// True when a property is kept in a Forcible wrapper: the struct then stores the wrappers (`_giftID`), and
    /// its initializers are in an extension so that the compiler's memberwise initializer exists beside them.
    var usesStorage: Bool { Self.usesStorage(item) }

    static func usesStorage(_ item: Struct) -> Bool {
        item.properties.contains { storage($0) != nil }
    }

    /// The arguments of `item`'s memberwise initializer, in the order of its properties, each from the expression
    /// `value` gives for it (of the property's type): the compiler's (`_giftID: ForcibleString(…)`) when the struct
    /// stores wrappers, else the public one's.
    static func memberwiseArguments(of item: Struct, _ value: (Property) -> String) -> [String] {
        let stores = usesStorage(item)
        return item.properties.map { property in
            guard stores, let storage = storage(property) else { return "\(property.name): \(value(property))" }
            return "_\(property.name): \(storage)(wrappedValue: \(value(property)))"
        }
    }

    func memberwiseInit(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let parameters = item.properties.map { property in
            let defaultValue = property.isOptional ? " = nil" : property.name == "attributes" ? " = .init()" : ""
            let type = usesStorage ? localType(property) : Self.swiftType(property)
            return "\(property.name): \(type)\(defaultValue)"
        }
        var lines = SwiftText.call("public init", parameters, tail: " {", indent: indent)
        if usesStorage {
            lines += SwiftText.call("self.init", Self.memberwiseArguments(of: item) { $0.name }, tail: "",
                                    indent: indent + 4)
        } else {
            for property in item.properties {
                lines.append(pad + "    self.\(property.name) = \(property.name)")
            }
        }
        lines.append(pad + "}")
        return lines
    }

    func initFromDecoder(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = [pad + "public init(from decoder: any Decoder) throws {"]
        for property in flattened {
            let type = usesStorage ? localType(property) : Self.swiftType(property)
            lines.append(pad + "    \(property.name) = try \(type)(from: decoder)")
        }
        if !keyed.isEmpty {
            lines.append(pad + "    let container = try decoder.container(keyedBy: CodingKeys.self)")
        }
        for property in keyed {
            let name = property.name
            if let storage = Self.storage(property) {
                lines.append(pad + "    _\(name) = try container.decode(\(storage).self, forKey: .\(name))")
            } else if property.isOptional {
                let type = usesStorage ? localBaseType(property) : Self.baseType(property.type)
                lines.append(pad + "    \(name) = try container.decodeIfPresent(\(type).self, forKey: .\(name))")
            } else {
                let type = usesStorage ? localBaseType(property) : Self.baseType(property.type)
                lines.append(pad + "    \(name) = try container.decode(\(type).self, forKey: .\(name))")
            }
        }
        lines.append(pad + "}")
        return lines
    }

    func encode(indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = [pad + "public func encode(to encoder: any Encoder) throws {"]
        for property in flattened {
            lines.append(pad + "    try \(property.name).encode(to: encoder)")
        }
        if !keyed.isEmpty {
            lines.append(pad + "    var container = encoder.container(keyedBy: CodingKeys.self)")
        }
        for property in keyed {
            let name = property.name
            if Self.storage(property) != nil {
                lines.append(pad + "    try container.encode(_\(name), forKey: .\(name))")
            } else {
                let method = property.isOptional ? "encodeIfPresent" : "encode"
                lines.append(pad + "    try container.\(method)(\(name), forKey: .\(name))")
            }
        }
        lines.append(pad + "}")
        return lines
    }

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

    /// `extension BCResponse.Gift { init(tape:) }`, then the nested structs' own.
    ///
    /// One pass over the object's members (`DirectExtraction.swift`): a `switch` on the key's length, then its
    /// bytes compared a word at a time with the words of each known key of that length, computed here. The keys
    /// of a flattened block (`User`) are matched in the same pass, into locals, and the block built after. A
    /// bit per key catches a key met twice.
    func tapeExtraction() -> [String] {
        var lines = ["extension \(qualifiedName) {"]
        if usesStorage {
            lines += memberwiseInit(indent: 4)
            lines.append("")
            lines += initFromDecoder(indent: 4)
            lines.append("")
        }
        lines.append("    init(tape object: TapeObject) throws(FastMiss) {")
        if item.properties.isEmpty {
            // No member is read, so none is matched: the keys are checked as a member pass would check them.
            lines.append("        self = try object.withPlainKeys(Self())")
        } else if let leaves = tapeLeaves() {
            lines += memberPass(leaves).map { "        " + $0 }
        } else {
            fatalError("\(qualifiedName): a block nested in a flattened block, which the catalogue never declares")
        }
        lines.append("    }")
        lines.append("}")
        for nested in item.nested {
            lines.append("")
            lines += StructEmitter(item: nested, parent: qualifiedName, isPayload: false, known: known, blocks: blocks)
                .tapeExtraction()
        }
        return lines
    }

    /// A keyed property read by `init(tape:)`, with the local it is read into (`giftID`, or `user_id` for the
    /// `id` of the flattened `user`).
    struct TapeLeaf {
        var key: String
        var local: String
        var property: Property
        /// The struct whose context names its types (`User` for a block's leaf).
        var owner: StructEmitter
    }

    /// The keyed properties of the struct and of its flattened blocks; nil if a block is not a shared struct.
    func tapeLeaves() -> [TapeLeaf]? {
        var leaves: [TapeLeaf] = []
        for property in item.properties {
            if let key = property.key {
                leaves.append(TapeLeaf(key: key, local: Self.local(property), property: property, owner: self))
            } else if case .flattened(let name) = property.type {
                // A block the catalogue does not share (a test's small catalogue, say) reads itself: a pass of its own.
                guard let block = blocks[name] else { continue }
                let owner = StructEmitter(item: block, parent: "BCResponse", isPayload: false, known: known, blocks: blocks)
                for inner in block.properties {
                    guard let key = inner.key else { return nil }  // a block within a block: not in the catalogue
                    leaves.append(TapeLeaf(key: key, local: property.name + "_" + inner.name, property: inner, owner: owner))
                }
            } else {
                return nil
            }
        }
        return leaves
    }

    /// The local a keyed property is read into: its name, unless the pass itself uses that name (`object`,
    /// `key`, `value`, ...).
    static func local(_ property: Property) -> String {
        ["object", "seen", "members", "key", "value"].contains(property.name) ? property.name + "Field" : property.name
    }

    /// The body of a member-driven `init(tape:)`.
    func memberPass(_ leaves: [TapeLeaf]) -> [String] {
        let keys = Array(Set(leaves.map(\.key))).sorted()
        precondition(keys.count <= 64, "\(qualifiedName): more than 64 keys; widen `seen`")
        let bit = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        var lines: [String] = []
        for leaf in leaves {
            lines.append("var \(leaf.local): \(leaf.owner.localBaseType(leaf.property))?")
        }
        lines.append("var seen: UInt64 = 0")
        lines.append("var members = object.members")
        lines.append("while let (key, value) = try members.next() {")
        lines.append("    switch key.count {")
        let byLength = Dictionary(grouping: keys, by: \.utf8.count)
        for length in byLength.keys.sorted() {
            lines.append("    case \(length):")
            for (index, key) in byLength[length]!.sorted().enumerated() {
                let words = Self.words(key).enumerated().map { "key.word(\($0.offset * 8)) == \($0.element)" }
                let test = "        \(index == 0 ? "if" : "} else if") \(words.joined(separator: " && ")) {  // \(key)"
                if test.count > SwiftText.width {
                    lines.append("        \(index == 0 ? "if" : "} else if") \(words[0])  // \(key)")
                    lines += words.dropFirst().map { "            && \($0)" }
                    lines[lines.count - 1] += " {"
                } else {
                    lines.append(test)
                }
                lines.append("            try TapeObject.mark(&seen, 1 << \(bit[key]!))")
                for leaf in leaves where leaf.key == key {
                    let read = leaf.owner.tapeRead(leaf.property)
                    let line = "            \(leaf.local) = \(read)"
                    if line.count + 8 > SwiftText.width, let closure = read.range(of: " { (") {
                        // `… { (element) throws(FastMiss) in try T(tape: element) }` over three lines.
                        let parts = read[closure.upperBound...].components(separatedBy: " in ")
                        lines.append("            \(leaf.local) = \(read[..<closure.lowerBound]) { (\(parts[0]) in")
                        lines.append("                " + parts[1].dropLast(2))
                        lines.append("            }")
                    } else {
                        lines.append(line)
                    }
                }
            }
            lines.append("        }")
        }
        lines.append("    default: break")
        lines.append("    }")
        lines.append("}")
        lines.append("if object.notesKeys {")
        let quoted = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        if quoted.count + 40 > SwiftText.width {
            lines.append("    object.noteKeys([")
            var line = ""
            for key in keys.map({ "\"\($0)\"," }) {
                if line.count + key.count + 20 > SwiftText.width {
                    lines.append("        " + line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + key
            }
            lines.append("        " + line)
            lines.append("    ])")
        } else {
            lines.append("    object.noteKeys([\(quoted)])")
        }
        lines.append("}")
        let required = leaves.filter { !$0.property.isOptional }.map(\.local)
        if !required.isEmpty {
            let guardLine = "guard " + required.map { "let \($0)" }.joined(separator: ", ") + " else { throw FastMiss() }"
            if guardLine.count + 8 > SwiftText.width {
                lines.append("guard")
                lines += required.enumerated().map { "    let \($1)" + ($0 == required.count - 1 ? "" : ",") }
                lines.append("else { throw FastMiss() }")
            } else {
                lines.append(guardLine)
            }
        }
        let arguments = Self.memberwiseArguments(of: item) { property in
            if property.key != nil { return Self.local(property) }
            guard case .flattened(let name) = property.type else { fatalError("a keyless property is a flattened block") }
            guard let block = blocks[name] else { return "try \(qualified(name))(tape: object)" }
            let fields = Self.memberwiseArguments(of: block) { "\(property.name)_\($0.name)" }
            let call = "\(qualified(name))(" + fields.joined(separator: ", ") + ")"
            return call.count + 40 > SwiftText.width
                ? "\(qualified(name))(\n                " + fields.joined(separator: ",\n                ") + ")"
                : call
        }
        lines.append("self.init(")
        for (index, argument) in arguments.enumerated() {
            lines.append("    " + argument + (index == arguments.count - 1 ? ")" : ","))
        }
        return lines
    }

    /// The property's type as written in an extension, where a sibling struct's name must be qualified.
    func localType(_ property: Property) -> String {
        localBaseType(property) + (property.isOptional ? "?" : "")
    }

    /// `localType` without the optional.
    func localBaseType(_ property: Property) -> String {
        switch property.type {
        case .object(let name), .flattened(let name), .openEnum(let name), .forcibleOpenEnum(let name): qualified(name)
        case .objects(let name): "[\(qualified(name))]"
        default: Self.baseType(property.type)
        }
    }

    /// A key's bytes as little-endian words of up to eight bytes (`TapeKey.word(_:)` reads a key so).
    static func words(_ key: String) -> [String] {
        let bytes = Array(key.utf8)
        return stride(from: 0, to: bytes.count, by: 8).map { offset in
            var word: UInt64 = 0
            for (shift, byte) in bytes[offset..<min(offset + 8, bytes.count)].enumerated() {
                word |= UInt64(byte) << (8 * UInt64(shift))
            }
            return "0x" + String(word, radix: 16)
        }
    }

    // MARK: - Per property

    static func baseType(_ type: PropertyType) -> String {
        switch type {
        case .string: "String"
        case .int: "Int"
        case .bool: "Bool"
        case .double: "Double"
        case .strings: "[String]"
        case .ints: "[Int]"
        case .stringDictionary: "[String: String]"
        case .openEnum(let name), .forcibleOpenEnum(let name), .object(let name), .flattened(let name): name
        case .objects(let name): "[\(name)]"
        }
    }

    static func swiftType(_ property: Property) -> String {
        baseType(property.type) + (property.isOptional ? "?" : "")
    }

    /// The property wrapper, nil for a property stored plainly.
    static func wrapper(_ property: Property) -> String? {
        let optional = property.isOptional ? "Optional" : ""
        switch property.type {
        case .string: return "@\(optional)ForcibleString"
        case .int: return "@\(optional)ForcibleInt"
        case .bool: return "@\(optional)ForcibleBool"
        case .double: return "@\(optional)ForcibleDouble"
        case .strings, .ints: return "@\(optional)ForcibleArray"
        case .stringDictionary, .forcibleOpenEnum: return "@Forcible"
        case .openEnum, .object, .objects, .flattened: return nil
        }
    }

    /// The wrapper's type as `init(from:)` decodes it, nil for a property stored plainly.
    static func storage(_ property: Property) -> String? {
        let optional = property.isOptional ? "Optional" : ""
        switch property.type {
        case .string: return "\(optional)ForcibleString"
        case .int: return "\(optional)ForcibleInt"
        case .bool: return "\(optional)ForcibleBool"
        case .double: return "\(optional)ForcibleDouble"
        case .strings, .ints, .stringDictionary, .forcibleOpenEnum: return "Forcible<\(swiftType(property))>"
        case .openEnum, .object, .objects, .flattened: return nil
        }
    }

    /// `Item` as seen from `BCResponse.Avatar.State`: `BCResponse.Avatar.Item`, the nearest enclosing match.
    func qualified(_ name: String) -> String {
        var scope = qualifiedName
        while true {
            if known.contains(scope + "." + name) { return scope + "." + name }
            guard let dot = scope.lastIndex(of: ".") else { return name }
            scope = String(scope[..<dot])
        }
    }

    /// The expression that reads the property's value, at tape index `value`, for `init(tape:)`'s member pass.
    func tapeRead(_ property: Property) -> String {
        let optional = property.isOptional
        func read(_ name: String) -> String {
            optional ? "try object.optional\(name.prefix(1).uppercased() + name.dropFirst())(at: value"
                : "try object.\(name)(at: value"
        }
        switch property.type {
        case .string: return read("string") + ")"
        case .int: return read("int") + ")"
        case .bool: return read("bool") + ")"
        case .double: return read("double") + ")"
        case .strings, .ints:
            let rule = property.type == .strings ? "forceString" : "forceInt"
            return read("forcedArray") + ", object.\(rule))"
        case .stringDictionary:
            return read("stringDictionary") + ")"
        case .openEnum(let name), .forcibleOpenEnum(let name):
            return optional
                ? "try object.optionalInt(at: value).map(\(name).init(rawValue:))"
                : "\(name)(rawValue: try object.int(at: value))"
        case .object(let name):
            return read("object") + ") { (nested) throws(FastMiss) in try \(qualified(name))(tape: nested) }"
        case .objects(let name):
            return read("objects") + ") { (element) throws(FastMiss) in try \(qualified(name))(tape: element) }"
        case .flattened:
            fatalError("flattened blocks are read by memberPass")
        }
    }
}
