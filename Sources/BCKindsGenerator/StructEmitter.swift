import Foundation

/// The Swift of one catalogue struct: declaration, memberwise init, `CodingKeys`, `init(from:)`,
/// `encode(to:)` (the canonical wire form) and the fast engine's `init(tape:)`.
///
/// `writeCanonicalJSON(into:)` is written by `StructEmitter+CanonicalJSON.swift`, `init(tape:)` by
/// `StructEmitter+TapeExtraction.swift`.
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
        let defaults = item.properties.contains { $0.isOptional } ? "; the optional ones default to nil" : ""
        var lines = [pad + "/// Creates a `\(item.name)` from the value of each property\(defaults)."]
        lines += SwiftText.call("public init", parameters, tail: " {", indent: indent)
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
}
