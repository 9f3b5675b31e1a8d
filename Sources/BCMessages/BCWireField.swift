/// One key path a kind's payload reads, as the catalogue declares it: `coins` (an int, required),
/// `rankings[]` (each element of the array `rankings`), `rankings[].ei` (a key of each element).
///
/// Generated from `Catalogue/` into `BCType.wireFields`, so that a tool that compares captures with the model
/// (`bcstream audit`) reads the keys from the one place they are declared. A path joins object keys with `.`
/// and marks an array's elements with `[]`; a flattened block's keys (`u`, `ac`, …) stand at the top.
public struct BCWireField: Hashable, Sendable {
    /// What a property declares, and so which JSON types its `Forcible` rule accepts.
    public enum Form: String, Hashable, Sendable, CaseIterable {
        /// A string, or a number kept digit for digit.
        case string
        /// A number, or a numeric string.
        case int
        /// true/false, 0/1, "0"/"1", "true"/"false".
        case bool
        /// A number, or a numeric string.
        case double
        /// An open enum (`YellRank`): a number or a string.
        case openEnum
        /// An object whose values are forcible strings.
        case stringDictionary
        /// An object read as a nested struct; its keys are fields of their own.
        case object
        /// An array; its elements are the field `path[]`.
        case array

        /// The JSON types the property reads without failing (its `Forcible` rule), `null` aside.
        public var acceptedTypes: Set<JSONType> {
            switch self {
            case .string, .int, .double, .openEnum: [.string, .number]
            case .bool: [.boolean, .number, .string]
            case .stringDictionary, .object: [.object]
            case .array: [.array]
            }
        }
    }

    /// The six types of JSON.
    public enum JSONType: String, Hashable, Sendable, CaseIterable, Codable, Comparable {
        /// `null`, `true`/`false`, a number, a string, an array, an object: the names JSON Schema gives them.
        case null, boolean, number, string, array, object

        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// `rankings[].ei`.
    public var path: String
    /// What the catalogue declares the property to be, hence the JSON types it accepts.
    public var form: Form
    /// The key may be absent or null. Always false for an array's elements (`path[]`).
    public var isOptional: Bool

    /// A field at `path` (`rankings[].ei`) of the given form, required unless `optional`.
    public init(_ path: String, _ form: Form, optional: Bool = false) {
        self.path = path
        self.form = form
        self.isOptional = optional
    }

    /// The JSON types a value at this path may have: the form's, and `null` when the key is optional.
    public var acceptedTypes: Set<JSONType> {
        isOptional ? form.acceptedTypes.union([.null]) : form.acceptedTypes
    }
}

extension BCType {
    /// Every key path this kind's payload reads, from the catalogue, in declaration order; empty for a bare kind,
    /// nil for a kind whose payload keeps every key (t=110). `wireKeys` is its top level.
    public var wireFields: [BCWireField]? { Self.fieldTable[self] }
}
