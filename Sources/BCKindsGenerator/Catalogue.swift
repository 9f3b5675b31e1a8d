import Foundation

/// The declarative catalogue of every bcsvr message kind: the one place a kind, its properties and their wire
/// keys are written. `KindsGenerator` turns it into the Swift of `Sources/BCMessages` (the payload structs with
/// their `CodingKeys`, `init(from:)`, `encode(to:)`, memberwise init and fast-engine `init(tape:)`, plus
/// `BCType` and `BCResponse`). The catalogue itself is `Catalogue/` (the `BCKindsCatalogue` target).
public struct Catalogue: Sendable {
    /// Every known kind, in `t` order: one `BCType` case and one `BCResponse` case each.
    public var kinds: [Kind]
    /// Structs that are no kind's payload but are shared by several (the user block, the comment attributes)
    /// or stand in a file of their own (a gift's rankings).
    public var shared: [Struct]

    public init(kinds: [Kind], shared: [Struct] = []) {
        self.kinds = kinds
        self.shared = shared
    }
}

/// How much to trust what the model says of a kind (`BCType.Evidence`).
public enum Evidence: String, Sendable, CaseIterable {
    /// Real payloads of this kind have been seen on the wire.
    case captured
    /// The official app decodes it with these keys; no capture has been seen.
    case appModel
    /// Keys from the app's model; the meaning is inferred from a name only.
    case appModelMeaningGuessed
    /// A third-party client reacts to this `t`; nothing is known of its fields.
    case clientCodeOnly
}

/// One message kind: a `t`, its `BCType`/`BCResponse` case name, what it means, and its payload.
public struct Kind: Sendable {
    public enum Payload: Sendable {
        /// A bare case (`case liveUnlinked`): no keys are known.
        case none
        /// A struct declared in the catalogue (generated).
        case declared(Struct)
        /// A struct written by hand in `Sources/BCMessages` (it keeps the message whole, for instance).
        case handWritten(String)
    }

    public var t: Int
    public var name: String
    public var meaning: String
    public var appEvent: String?
    public var evidence: Evidence
    public var payload: Payload

    /// A kind whose payload is declared in the catalogue.
    public init(_ t: Int, _ name: String, _ meaning: String, app appEvent: String?, _ evidence: Evidence,
                _ payload: Struct) {
        self.init(t, name, meaning, app: appEvent, evidence, payload: .declared(payload))
    }

    /// A bare kind (no payload) or one whose payload struct is written by hand.
    public init(_ t: Int, _ name: String, _ meaning: String, app appEvent: String?, _ evidence: Evidence,
                payload: Payload = .none) {
        self.t = t
        self.name = name
        self.meaning = meaning
        self.appEvent = appEvent
        self.evidence = evidence
        self.payload = payload
    }

    /// The payload struct's name (`"Gift"`), nil for a bare kind.
    public var payloadName: String? {
        switch payload {
        case .none: nil
        case .declared(let payload): payload.name
        case .handWritten(let name): name
        }
    }
}

/// A struct: a kind's payload, a struct nested in one, or a shared one.
public struct Struct: Sendable {
    /// The Swift name (`"Gift"`, `"Info"` for `BCResponse.Quiz.Info`).
    public var name: String
    /// The doc comment, without `///`; line breaks are kept.
    public var doc: String
    /// The properties, in the order of the memberwise init.
    public var properties: [Property]
    /// Structs declared inside this one.
    public var nested: [Struct]
    /// For a top-level struct, the generated file under `Sources/BCMessages` (default `Kinds/<name>.generated.swift`);
    /// its name ends in `.generated.swift`, as every generated file's does.
    public var file: String?
    /// Hand-written files that extend this struct (computed properties), named in the generated header.
    public var extras: [String]
    /// The catalogue file that declares it (for the generated header).
    public var source: String

    public init(_ name: String, file: String? = nil, extras: [String] = [], doc: String, _ properties: [Property],
                nested: [Struct] = [], source: String = #filePath) {
        self.name = name
        self.doc = doc
        self.properties = properties
        self.nested = nested
        self.file = file
        self.extras = extras
        self.source = Struct.catalogueRelative(source)
    }

    /// `/…/Catalogue/Kinds/Gift.swift` → `Catalogue/Kinds/Gift.swift`.
    static func catalogueRelative(_ path: String) -> String {
        guard let range = path.range(of: "/Catalogue/", options: .backwards) else { return path }
        return String(path[path.index(after: range.lowerBound)...])
    }
}

/// One stored property and the wire key it is read from.
public struct Property: Sendable {
    /// The wire key; nil for a flattened block (`user`, `attributes`), read from the message's own object.
    public var key: String?
    public var name: String
    public var type: PropertyType
    /// Optional properties accept an absent key or `null`, and are left out when encoded as nil.
    public var isOptional: Bool
    /// The doc comment; the generator puts "`key`: " before it.
    public var doc: String

    /// A key every message of the kind carries.
    public static func required(_ key: String, _ name: String, _ type: PropertyType, _ doc: String) -> Property {
        Property(key: key, name: name, type: type, isOptional: false, doc: doc)
    }

    /// A key that may be absent or null.
    public static func optional(_ key: String, _ name: String, _ type: PropertyType, _ doc: String) -> Property {
        Property(key: key, name: name, type: type, isOptional: true, doc: doc)
    }

    /// The shared user block (`u`, `ac`, `iurl`, `burl`), flattened into the message: `user: User`.
    public static func user(_ doc: String) -> Property {
        Property(key: nil, name: "user", type: .flattened("User"), isOptional: false, doc: doc)
    }

    /// The comment class's optional keys, flattened into the message: `attributes: CommentAttributes`.
    public static func attributes(_ doc: String) -> Property {
        Property(key: nil, name: "attributes", type: .flattened("CommentAttributes"), isOptional: false, doc: doc)
    }
}

/// What a property holds, and so which `Forcible` rule reads it.
public enum PropertyType: Sendable, Equatable {
    /// `@ForcibleString`: a string, or a number kept digit for digit.
    case string
    /// `@ForcibleInt`: a number or a numeric string.
    case int
    /// `@ForcibleBool`: true/false, 0/1, "0"/"1", "true"/"false".
    case bool
    /// `@ForcibleDouble`: a number or a numeric string.
    case double
    /// `@ForcibleArray`: an array of forcible strings.
    case strings
    /// `@ForcibleArray`: an array of forcible ints.
    case ints
    /// `@Forcible`: an object of forcible strings.
    case stringDictionary
    /// A hand-written `OpenEnum` (`YellRank`, `CollabType`), stored plainly.
    case openEnum(String)
    /// A hand-written `OpenEnum` stored in a `@Forcible` wrapper.
    case forcibleOpenEnum(String)
    /// A nested object, read as the named struct.
    case object(String)
    /// An array of nested objects, each read as the named struct.
    case objects(String)
    /// A struct read from the message's own object (the user block, the comment attributes).
    case flattened(String)
}
