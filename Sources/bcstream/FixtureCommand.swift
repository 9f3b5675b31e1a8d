import ArgumentParser
import BCAudit
import BCConsole
import BCMessages
import BCReplay
import Foundation

struct FixtureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture",
        abstract: "Make regression fixtures from captured messages.",
        subcommands: [FixtureAddCommand.self]
    )
}

struct FixtureAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Write one captured message into Tests/Payloads, user fields made up.",
        usage: """
            bcstream fixture add <recording> [--line N | --kind K]
                                 [--what NAME] [--into DIR]
            """,
        discussion: """
            Takes the message on --line N of the recording, or the first of kind \
            --kind K (a name such as gift or top-gifters, or a t), or else the \
            first message, and writes its JSON exactly as received, one line \
            without a trailing newline, to DIR/<t>-<kind>-<what>.json, where the \
            fixture tests and their goldens pick it up.

            Replaced in place, every other byte kept: u (a user id) and ac (a \
            display name) at any depth, iurl and burl when not empty, and any \
            http(s) URL to an image, by made-up values of the same JSON type. A \
            text that still quotes a replaced name (a speech line) is named for \
            you to check.

            The recording may be a listen --record recording, a file of bcsvr \
            MSG lines or bare JSON; a log of listen --format ndjson keeps the \
            wire text only of messages that failed to decode.

            Refuses to overwrite a file, and a name with a path separator. \
            Prints what it wrote and the command that records its golden.

            Examples:
              bcstream fixture add live.ndjson --kind gift --what rankings-x
              bcstream fixture add live.ndjson --line 12 --what new-badge
            """
    )

    @Argument(help: "A recording (listen --record), or a file of MSG lines or JSON messages.")
    var recording: String

    @Option(help: "Take the message on this line of the recording.")
    var line: Int?

    @Option(help: "Take the first message of this kind (gift, top-gifters, or a t).")
    var kind: String?

    @Option(help: "What the fixture shows, kebab-case (default: captured-line-N).")
    var what: String?

    @Option(help: "The folder to write into.")
    var into: String = "Tests/Payloads"

    func validate() throws {
        if line != nil && kind != nil { throw ValidationError("Pass --line or --kind, not both.") }
        if let line, line < 1 { throw ValidationError("--line must be at least 1.") }
        if let what, let problem = FixtureName.problem(with: what) {
            throw ValidationError(TerminalText.escaped("--what \(what): \(problem)."))
        }
        if let kind, Self.kindNumber(kind) == nil {
            throw ValidationError(TerminalText.escaped("--kind \(kind): not a kind the model knows, nor a t; "
                + "see bcstream types."))
        }
    }

    /// `gift`, `top-gifters` or `35` → 35.
    static func kindNumber(_ text: String) -> Int? {
        if let t = Int(text) { return t }
        return BCType.allCases.first { $0.name == text || FixtureName.kebab($0.name) == text }?.rawValue
    }

    func run() throws {
        let found = try Self.find(in: recording, line: line, kind: kind.flatMap(Self.kindNumber))
        guard let t = AuditInput.kind(ofMessage: found.json) else {
            throw CommandFailure("\(found.location): the message has no integer t")
        }
        let redaction: FixtureRedaction
        do {
            redaction = try FixtureRedaction.redact(found.json)
        } catch {
            throw CommandFailure("\(found.location): \(error.reason)")
        }
        let name = FixtureName.fileName(t: t, what: what ?? "captured-line-\(found.location.line)")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: into, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure("\(into) is not a folder (pass --into DIR)")
        }
        let path = (into.hasSuffix("/") ? into : into + "/") + name
        try Self.writeNew(redaction.text, to: path)

        print(reportLine("wrote \(path) (\(found.location), \(redaction.text.utf8.count) bytes)"))
        let replaced = Array(Set(redaction.replaced.map(\.path))).sorted()
        print(reportLine("  made up: " + (replaced.isEmpty ? "nothing (no user fields)" : replaced.joined(separator: ", "))))
        if !redaction.mentionsLeft.isEmpty {
            print(reportLine("  check by hand, may still quote a name: " + redaction.mentionsLeft.joined(separator: ", ")))
        }
        var audit = Audit()
        audit.add(message: redaction.text, at: found.location)
        let findings = audit.report().findings
        if BCType(rawValue: t) == nil {
            print("  t=\(t) is a kind the model does not know: it decodes as unknown until")
            print("  Catalogue/ declares it (README: Adding a key or a kind)")
        } else if findings.total > 0 {
            print("  the model does not know all of it (bcstream audit FILE says what): the")
            print("  strict-mode fixture tests fail until Catalogue/ declares it")
        }
        print("  record its golden, then review git diff:")
        print("    BCSTREAM_RECORD_GOLDENS=1 swift test --filter FixtureTests")
    }

    struct Found {
        let json: String
        let location: AuditLocation
    }

    /// The message asked for: on `line`, or the first of kind `kind`, or the first of the file.
    static func find(in path: String, line wanted: Int?, kind: Int?) throws -> Found {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read \(path): \(DecodeProblem.reason(errno: errno))")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var found: Found?
        var reencodedOnWantedLine = false
        var otherKinds: [Int: Int] = [:]
        do {
            try LineReader(descriptor: descriptor).forEachLine { number, line in
                guard found == nil, case .bytes(let bytes) = line else { return }
                if let wanted, number != wanted { return }
                guard let text = String(validating: bytes, as: UTF8.self) else { return }
                for input in AuditInput.detect(text) {
                    switch input {
                    case .wire(let json, _):
                        if let kind, let t = AuditInput.kind(ofMessage: json), t != kind {
                            otherKinds[t, default: 0] += 1
                            continue
                        }
                        if found == nil { found = Found(json: json, location: AuditLocation(source: path, line: number)) }
                    case .reencoded, .reencodedUnknown:
                        reencodedOnWantedLine = true
                    case .skipped, .bad, .backlogAnswer, .backlogReencoded:  // not bcsvr messages: no fixture
                        break
                    }
                }
            }
        } catch {
            throw CommandFailure("cannot read \(path): \(error)")
        }
        if let found { return found }
        let reencoded = reencodedOnWantedLine
            ? " (a log of listen --format ndjson keeps the model's re-encoding, not the wire text: use a recording)" : ""
        if let wanted { throw CommandFailure("\(path):\(wanted) holds no message as received\(reencoded)") }
        if let kind {
            let seen = otherKinds.keys.sorted().map(String.init).joined(separator: ", ")
            throw CommandFailure("\(path) holds no message of t=\(kind) as received\(reencoded)"
                + (seen.isEmpty ? "" : "; it holds t=\(seen)"))
        }
        throw CommandFailure("\(path) holds no message as received\(reencoded)")
    }

    /// Creates `path` with `text`, refusing to replace a file that is there.
    static func writeNew(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw CommandFailure("\(path) exists; not overwritten (choose another --what)") }
            throw CommandFailure("cannot create \(path): \(DecodeProblem.reason(errno: errno))")
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot write \(path): \(DecodeProblem.reason(errno: errno))")
            }
            written += result
        }
    }
}
