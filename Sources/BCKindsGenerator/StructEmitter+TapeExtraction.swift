import Foundation

/// The fast engine's reader of a catalogue struct: `init(tape:)`, one pass over the object's members.
extension StructEmitter {
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
