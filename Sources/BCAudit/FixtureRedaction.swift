import BCMessages

/// What `bcstream fixture add` writes: a captured message as it was received, with the values that belong to a
/// real person replaced in place by made-up ones, every other byte left as it was.
///
/// Replaced, at any depth: `u` (a user's id) and `ac` (a user's display name), the user block's keys
/// (`Catalogue/User.swift`); `iurl` and `burl` (profile and badge image URLs) when not empty; and any string that
/// is an http(s) URL to an image (a path ending in .png, .jpg, .jpeg, .gif, .webp, .svg, .bmp or .avif).
/// A replacement keeps the value's JSON type (an id sent as a number stays a number), maps the same original to
/// the same stand-in (so a message about two users still names two), and writes `\/` where the original did.
public struct FixtureRedaction: Hashable, Sendable {
    /// The text to write.
    public var text: String
    /// Each replacement: the path (`users[].ac`) and the stand-in written, in the order of the text.
    public var replaced: [Replacement]
    /// Keys of string values that still contain a replaced name (a `speech` that says "ねこまるが…を贈りました"):
    /// the tool cannot rewrite them without re-encoding them, so it names them for a person to check.
    public var mentionsLeft: [String]

    /// One value replaced: where, and with what.
    public struct Replacement: Hashable, Sendable {
        /// The value's key path (`users[].ac`).
        public var path: String
        /// The JSON text written in place of the value.
        public var with: String
    }

    /// The URL that stands in for every image URL.
    public static let imagePlaceholder = "https://cdn.example.com/image/placeholder.png"

    /// Replaces the user fields of `json`, a message's text as received.
    public static func redact(_ json: String) throws(JSONSyntaxError) -> FixtureRedaction {
        let bytes = Array(json.utf8)
        let root = try AuditJSON.parse(bytes)
        var edits: [(range: Range<Int>, text: String, path: String)] = []
        var ids: [String: String] = [:]
        var names: [String: String] = [:]
        var strings: [(path: String, value: String)] = []

        func raw(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func slashes(_ range: Range<Int>, _ text: String) -> String {
            raw(range).contains("\\/") ? text.replacing("/", with: "\\/") : text
        }
        func visit(_ value: AuditJSON, key: String?, path: String) {
            switch value {
            case .object(let members, _):
                for (key, member) in members { visit(member, key: key, path: path.isEmpty ? key : path + "." + key) }
            case .array(let elements, _):
                for element in elements { visit(element, key: nil, path: path + "[]") }
            case .number(let range) where key == "u":
                let original = raw(range)
                let standIn = ids[original] ?? String(100_000_001 + ids.count)
                ids[original] = standIn
                edits.append((range, standIn, path))
            case .string(let original, let range) where key == "u":
                let standIn = ids[original] ?? String(100_000_001 + ids.count)
                ids[original] = standIn
                edits.append((range, "\"\(standIn)\"", path))
            case .string(let original, let range) where key == "ac" && !original.isEmpty:
                let standIn = names[original] ?? "viewer\(names.count + 1)"
                names[original] = standIn
                edits.append((range, "\"\(standIn)\"", path))
            case .string(let original, let range)
                where (key == "iurl" || key == "burl") && !original.isEmpty || isImageURL(original):
                edits.append((range, slashes(range, "\"\(imagePlaceholder)\""), path))
            case .string(let original, _):
                strings.append((path, original))
            default:
                break
            }
        }
        visit(root, key: nil, path: "")

        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            output += bytes[position..<edit.range.lowerBound]
            output += Array(edit.text.utf8)
            position = edit.range.upperBound
        }
        output += bytes[position...]
        let realNames = names.keys.filter { $0.unicodeScalars.count >= 2 }
        let mentions = strings.filter { item in realNames.contains { item.value.contains($0) } }.map(\.path)
        return FixtureRedaction(text: String(decoding: output, as: UTF8.self),
                                replaced: edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
                                    .map { Replacement(path: $0.path, with: $0.text) },
                                mentionsLeft: Array(Set(mentions)).sorted())
    }

    /// An http(s) URL whose path names an image file.
    public static func isImageURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
        let path = lower.prefix { $0 != "?" && $0 != "#" }
        return [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".avif"].contains { path.hasSuffix($0) }
    }
}

/// The name of a fixture file: `<t>-<kind>-<what>.json`, as `Tests/Payloads` names them and
/// `FixtureTests.fileNameStartsWithItsTypeAndKind` checks.
public enum FixtureName {
    /// `liveURLShared` → `live-url-shared`: a run of capitals is one word. An unknown kind is `unknown`.
    public static func kindSlug(t: Int) -> String {
        guard let type = BCType(rawValue: t) else { return "unknown" }
        return kebab(type.name)
    }

    /// A camelCase name in kebab-case: `liveURLShared` → `live-url-shared`.
    public static func kebab(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            let isUpper = ASCII.uppercase(scalar)
            if isUpper, index > 0 {
                let previousLower = ASCII.lowercase(scalars[index - 1])
                let nextLower = index + 1 < scalars.count && ASCII.lowercase(scalars[index + 1])
                let previousUpper = ASCII.uppercase(scalars[index - 1])
                if previousLower || (previousUpper && nextLower) { result += "-" }
            }
            result.unicodeScalars.append(isUpper ? Unicode.Scalar(scalar.value + 32)! : scalar)
        }
        return result
    }

    /// Why `what` cannot be part of a file name, or nil when it can: lowercase letters, digits and `-`, not
    /// empty, no path separator, at most 80 characters.
    public static func problem(with what: String) -> String? {
        if what.isEmpty { return "the name is empty" }
        if what.contains("/") || what.contains("\\") { return "the name holds a path separator" }
        if what.hasPrefix("-") || what.hasPrefix(".") { return "the name starts with \(what.first!)" }
        if what.count > 80 { return "the name is longer than 80 characters" }
        let allowed = what.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        return allowed ? nil : "use lowercase letters, digits and - only (kebab-case, as Tests/Payloads does)"
    }

    /// The file name of a fixture of kind `t`: `35-gift-<what>.json`.
    public static func fileName(t: Int, what: String) -> String {
        "\(t)-\(kindSlug(t: t))-\(what).json"
    }

    private enum ASCII {
        static func uppercase(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
        static func lowercase(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) }
    }
}
