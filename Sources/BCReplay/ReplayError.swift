/// Why nothing can be replayed from a source, told so that a person knows what to pass instead.
///
/// A problem inside a source that still plays (a bad line of a recording) is a `ReplayProblem`, not an error.
public enum ReplayError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The default fixture folder is not in the current directory, and was needed: no source was given, or
    /// `argument` (a fixture name, a `t` or a kind) is looked up there.
    case defaultFolderMissing(folder: String, currentDirectory: String, argument: String?)
    /// A path that looks like a file (it has a `/` or an extension) but nothing is there.
    case notFound(path: String)
    /// A file or folder that exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// A file that is neither a fixture (`.json`) nor a recording.
    case neitherFixtureNorRecording(path: String)
    /// A folder with no `*.json` directly inside.
    case noFixtures(folder: String)
    /// A word that is no path and names no fixture, `t` or kind of the fixture folder.
    case unknownSource(argument: String, folder: String, suggestions: [String])
    /// The demo needs a message of kind `t` and the fixture folder has none.
    case demoFixtureMissing(t: Int, kind: String, example: String, folder: String)

    /// What a source can be, for the end of a message.
    static let expectedSources = "a fixture file (.json, one message as the wire sends it), a folder of fixtures, "
        + "or a recording (.ndjson, as `bcstream listen --record` writes)"

    public var description: String {
        switch self {
        case .defaultFolderMissing(let folder, let currentDirectory, let argument):
            let looking = argument.map { "cannot look up \"\($0)\": " } ?? "nothing to replay: "
            return looking + "there is no \(folder) folder in \(currentDirectory). Run from the BCStream checkout "
                + "(the folder that holds Package.swift), or pass what to replay: \(Self.expectedSources)."
        case .notFound(let path):
            return "no such file or folder: \(path). Expected \(Self.expectedSources)."
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason). Expected \(Self.expectedSources)."
        case .neitherFixtureNorRecording(let path):
            return "\(path) is neither a fixture nor a recording. Expected a fixture (a .json file holding one "
                + "message's JSON) or a recording (.ndjson, one "
                + #"{"time":"…Z","key":"…","text":"…"}"# + " a line, "
                + "as `bcstream listen --record` writes)."
        case .noFixtures(let folder):
            return "\(folder) holds no fixture: expected *.json files directly inside, one message each."
        case .unknownSource(let argument, let folder, let suggestions):
            let guess = suggestions.isEmpty ? "" : " Did you mean \(suggestions.joined(separator: ", "))?"
            return "\"\(argument)\" is no file or folder, and names no fixture, t or kind in \(folder).\(guess) "
                + "Expected \(Self.expectedSources); or, from \(folder), a fixture name "
                + "(35-gift-small-heart-captured-shape), a t (35) or a kind (gift)."
        case .demoFixtureMissing(let t, let kind, let example, let folder):
            return "the demo needs a message of t=\(t) (\(kind)), such as \(example).json, and \(folder) has none. "
                + "Run from the BCStream checkout, whose Tests/Payloads has every fixture the demo uses."
        }
    }
}
