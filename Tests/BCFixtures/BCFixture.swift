import BCMessages

/// One fixture of BCStream: a single bcsvr message exactly as the wire sends it, from a file named
/// `<t>-<kind-kebab>-<what>.json` (`35-gift-small-heart-captured-shape.json`). Its description is its name, so
/// that `@Test(arguments: BCFixtures.all)` names each case after its file.
public struct BCFixture: Hashable, Sendable, CustomStringConvertible {
    /// The file name without `.json`: `35-gift-small-heart-captured-shape`.
    public let name: String
    /// The `t` the name starts with (`35`), nil when it starts with no number.
    public let t: Int?
    /// The known kind of that `t`, nil for a `t` of no known kind or no `t` at all.
    public let kind: BCType?
    /// The message: exactly the bytes of the file.
    public let bytes: [UInt8]
    /// For an invalid fixture (`BCFixtures.invalid`), the error its decoding must report, as in its `.error` file;
    /// nil for a valid one.
    public let expectedError: String?

    /// A fixture named `name` (its file name without `.json`) that holds `bytes`; its `t` and kind are read
    /// from the name. `expectedError` only for an invalid one.
    public init(name: String, bytes: [UInt8], expectedError: String? = nil) {
        self.name = name
        self.t = Self.t(ofName: name)
        self.kind = t.flatMap(BCType.init(rawValue:))
        self.bytes = bytes
        self.expectedError = expectedError
    }

    public var description: String { name }

    /// The `t` a fixture name starts with: `35` for `35-gift-…`, nil for `not-an-object`. The name and not the
    /// content says it: a fixture may hold a `t` that is a string, or none, on purpose.
    public static func t(ofName name: String) -> Int? {
        Int(name.prefix { $0 != "-" })
    }

    /// The order of a fixture folder, as the tests and the replay read it: by `t`, then by name; names without a
    /// `t` last.
    public static func precedes(name lhs: String, _ rhs: String) -> Bool {
        (t(ofName: lhs) ?? .max, lhs) < (t(ofName: rhs) ?? .max, rhs)
    }
}
