import BCMessages
import Foundation
import Testing
import TestSupport

/// Every shell line the README prints in "A short tour" and "A fleet on NATS JetStream" is either run here as
/// printed, its outcome checked, or says in its own comment why not: the comment ends with `(needs …)`, what the
/// line needs that a test run lacks (the real service, NATS on its fixed port, a release build). A line that does
/// neither fails `everyLineRunsOrSaysWhatItNeeds`, and so does a `(needs …)` line that a check here runs.
///
/// A line runs as printed: `swift run bcstream` and `bcstream` are the built `bcstream`, `swift run -c release
/// bcstream-bench` the built (debug) `bcstream-bench`, the rest of the line its arguments, word for word. Its working
/// directory is a temporary folder standing for the checkout's root: a copy of `Tests/Payloads` (so that a line
/// that writes there, `fixture add`, leaves the checkout as it was) and, for the lines that read it, a `live.ndjson`
/// recorded by `bcstream listen --record` from a local `bcstream replay`. Every process has a deadline and is
/// stopped.
@Suite struct ReadmeCommandsTests {
    /// The README's shell lines, read once.
    static let lines: [ReadmeShellLine] = {
        let readme = BCStreamProcess.repository.appendingPathComponent("README.md")
        return ReadmeShellLine.lines(of: (try? String(contentsOf: readme, encoding: .utf8)) ?? "")
    }()

    /// The lines a check below runs, in README order.
    static let runnable = lines.filter { checks[$0.command] != nil }

    @Test func everyLineRunsOrSaysWhatItNeeds() throws {
        let sections = Set(Self.lines.map(\.section))
        #expect(sections == Set(ReadmeShellLine.sections), "a ```sh block in each section: \(sections)")
        #expect(Self.lines.count >= 20, "\(Self.lines.map(\.command))")
        for line in Self.lines {
            let checked = Self.checks[line.command] != nil
            switch (checked, line.needs) {
            case (false, nil):
                Issue.record("""
                    README.md:\(line.number) is not run by ReadmeCommandsTests and its comment does not end with \
                    `(needs …)`: add a check for it here, or say what it needs: \(line.text)
                    """)
            case (true, let needs?):
                Issue.record("README.md:\(line.number) says it needs \(needs), yet a check runs it: \(line.text)")
            case (true, nil):
                #expect(line.program != nil, "README.md:\(line.number) runs neither bcstream nor bcstream-bench")
                let shell = line.command.filter { "&|;<>$'\"`*?(){}[]\\".contains($0) }
                #expect(shell.isEmpty, "README.md:\(line.number) needs a shell (\(shell)), not run word for word")
            case (false, _?):
                break
            }
        }
        for command in Self.checks.keys {
            #expect(Self.lines.contains { $0.command == command }, "no README line is `\(command)` any more")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: runnable)
    func runsAsPrinted(_ line: ReadmeShellLine) async throws {
        let check = try #require(Self.checks[line.command])
        let folder = try TourFolder()
        defer { folder.remove() }
        if line.words.contains(TourFolder.recording) { try await folder.record() }
        try await check(folder, line)
    }

    /// The key the README's lines subscribe to.
    static let key = "118f91f:UdoBre1M"

    typealias Check = @Sendable (TourFolder, ReadmeShellLine) async throws -> Void

    /// What each line that runs must do, by the line's command as printed.
    static let checks: [String: Check] = [
        "swift run bcstream demo": { folder, line in
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.last?.contains("liveEnded") == true, "the scripted live ends: \(result.stdout)")
            #expect(result.stderr.contains { $0.contains("subscribed to channel demo:live") }, "\(result.stderr)")
        },
        "swift run bcstream replay": { folder, line in
            // Every fixture in order of t, one a second: the first a subscriber gets is a t=1 comment.
            try await folder.serve(line) { url in
                let received = try await folder.subscribe(url, ["--count", "1"])
                #expect(received.map(\.kind) == ["comment"], "\(received)")
            }
        },
        "swift run bcstream replay gift 116 --interval 0.2 --loop": { folder, line in
            try await folder.serve(line) { url, replay in
                // "replay: serving N messages on ws://…": one more than N shows the playlist came round again.
                let serving = try await replay.errorLines.first(within: .seconds(10), "replay's playlist") {
                    $0.contains("serving ")
                }
                let count = try #require(serving.split(separator: " ").drop { $0 != "serving" }.dropFirst().first
                    .flatMap { Int($0) }, "\(serving)")
                let received = try await folder.subscribe(url, ["--count", "\(count + 1)"])
                #expect(received.count == count + 1, "round and round: \(received)")
                #expect(Set(received.map(\.kind)) == ["gift", "cheerLevelUp"], "\(received)")
            }
        },
        "swift run bcstream replay live.ndjson --speed 4 --drop-after 20": { folder, line in
            let recorded = try folder.recordedKinds()
            #expect(recorded.count > 20, "the recording is longer than --drop-after")
            try await folder.serve(line) { url, replay in
                // No --count: the listener stops at the recording's t=8, having come back after the drop.
                var notes: [String] = []
                let received = try await folder.subscribe(url, [], notes: &notes)
                #expect(received.map(\.kind) == recorded, "every recorded message, in order, once")
                #expect(notes.contains { $0.contains("drop after 20") && $0.contains("reconnecting") }, "\(notes)")
                #expect(try await replay.exitStatus(within: .seconds(10)) == 0, "replay ends once it played all")
            }
        },
        "swift run bcstream decode Tests/Payloads": { folder, line in
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 1, "Tests/Payloads/Invalid holds messages that fail: \(result.stderr)")
            let failed = result.stdout.filter { $0.contains("✗") }
            #expect(!failed.isEmpty && failed.allSatisfy { $0.contains("Tests/Payloads/Invalid/") },
                    "only Invalid/ fails: \(failed)")
            let fixtures = try FileManager.default.contentsOfDirectory(
                atPath: BCStreamProcess.repository.appendingPathComponent("Tests/Payloads").path)
                .filter { $0.hasSuffix(".json") }
            #expect(result.stdout.count - failed.count == fixtures.count, "one line per fixture")
        },
        "swift run bcstream decode --format ndjson --strict live.ndjson": { folder, line in
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            let kinds = try result.stdout.map(TourFolder.received).map(\.kind)
            #expect(kinds == (try folder.recordedKinds()), "every recorded message decodes: \(result.stdout)")
        },
        "swift run bcstream types": { folder, line in
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            let kinds = result.stdout.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
            #expect(kinds.count >= 60 && kinds.contains("gift") && kinds.contains("liveEnded"), "\(result.stdout)")
        },
        "swift run bcstream audit live.ndjson": { folder, line in
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            let recorded = try folder.recordedKinds()
            #expect(result.stdout.first == "\(recorded.count) messages audited", "\(result.stdout)")
            #expect(result.stdout.contains { $0.hasPrefix("Findings: 0 new keys, 0 new kinds") }, "\(result.stdout)")
        },
        "swift run bcstream fixture add live.ndjson --kind gift --what new-badge": { folder, line in
            let checkout = BCStreamProcess.repository.appendingPathComponent("Tests/Payloads").path
            let before = try FileManager.default.contentsOfDirectory(atPath: checkout).sorted()
            let result = try await folder.run(line, within: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            let written = "Tests/Payloads/35-gift-new-badge.json"
            #expect(result.stdout.first?.hasPrefix("wrote \(written) (live.ndjson:") == true, "\(result.stdout)")
            let decoded = try await folder.run(BCStreamProcess.executable, ["decode", "--strict", written],
                                               within: .seconds(30))
            #expect(decoded.status == 0 && decoded.stdout.count == 1, "the new fixture decodes: \(decoded.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: checkout).sorted() == before,
                    "the checkout's fixtures are untouched")
        },
        "swift run -c release bcstream-bench": { folder, line in
            // About 8 s of CPU in a debug build: 2 s per decoder, the equivalence check, the allocation count.
            let result = try await folder.run(line, within: .seconds(50))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains { $0.hasPrefix("check: the fast path and JSONDecoder agree on every") },
                    "\(result.stdout)")
            #expect(result.stdout.contains { $0.hasPrefix("speedup vs JSONDecoder: ") }, "\(result.stdout)")
        },
    ]
}

/// A line of a ```sh block of the README.
struct ReadmeShellLine: Sendable, CustomTestStringConvertible {
    /// The sections whose ```sh blocks are held to running or saying what they need.
    static let sections = ["## A short tour", "## A fleet on NATS JetStream"]

    let section: String
    /// Its line number in README.md, from 1.
    let number: Int
    let text: String
    /// What is before its comment, trimmed.
    let command: String
    /// What follows its `#`, trimmed, if it has a comment.
    let comment: String?

    var testDescription: String { command }

    var words: [String] { command.split(separator: " ").map(String.init) }

    /// What the line says it needs, when its comment ends with `(needs …)`: the reason no test runs it.
    var needs: String? {
        guard let comment, comment.hasSuffix(")"), let open = comment.range(of: "(needs ", options: .backwards)
        else { return nil }
        let reason = comment[open.upperBound..<comment.index(before: comment.endIndex)]
            .trimmingCharacters(in: .whitespaces)
        return reason.isEmpty ? nil : reason
    }

    /// The built program the line runs, and its arguments as printed.
    var program: (executable: URL, arguments: [String])? {
        let programs: [([String], URL)] = [
            (["swift", "run", "bcstream"], BCStreamProcess.executable),
            (["swift", "run", "-c", "release", "bcstream-bench"], BCStreamProcess.bench),
            (["bcstream"], BCStreamProcess.executable),
        ]
        for (prefix, executable) in programs where words.starts(with: prefix) {
            return (executable, Array(words.dropFirst(prefix.count)))
        }
        return nil
    }

    /// The command lines of the ```sh blocks of `sections` (comment-only and blank lines left out).
    static func lines(of readme: String) -> [ReadmeShellLine] {
        var lines: [ReadmeShellLine] = []
        var section = ""
        var inShellBlock = false
        var inOtherBlock = false
        for (index, text) in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .enumerated() {
            if text.hasPrefix("```") {
                if inShellBlock || inOtherBlock {
                    inShellBlock = false
                    inOtherBlock = false
                } else if text == "```sh" {
                    inShellBlock = true
                } else {
                    inOtherBlock = true
                }
                continue
            }
            if !inShellBlock && !inOtherBlock && text.hasPrefix("## ") { section = text }
            guard inShellBlock, sections.contains(section) else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            // A comment starts at a # after a blank; the commands of these blocks hold no other #.
            let hash = text.range(of: " #")
            let command = String(hash.map { text[..<$0.lowerBound] } ?? text[...]).trimmingCharacters(in: .whitespaces)
            let comment = hash.map { text[$0.upperBound...].trimmingCharacters(in: .whitespaces) }
            lines.append(ReadmeShellLine(section: section, number: index + 1, text: text, command: command,
                                         comment: comment))
        }
        return lines
    }
}

/// The temporary folder a line runs in, standing for the checkout's root: a copy of `Tests/Payloads`, and
/// `live.ndjson` when `record()` made it.
final class TourFolder: Sendable {
    static let recording = "live.ndjson"

    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-tour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("Tests"),
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BCStreamProcess.repository.appendingPathComponent("Tests/Payloads"),
                                         to: url.appendingPathComponent("Tests/Payloads"))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    struct Finished {
        let status: Int32
        let stdout: [String]
        let stderr: [String]
    }

    /// Runs `executable` with `arguments` here to its exit, within `timeout`.
    func run(_ executable: URL, _ arguments: [String], within timeout: Duration) async throws -> Finished {
        let process = try PeerProcess(executable: executable.path, arguments: arguments,
                                      name: ([executable.lastPathComponent] + arguments).joined(separator: " "),
                                      directory: url)
        defer { process.stop() }
        let status = try await process.exitStatus(within: timeout)
        let stdout = try await process.lines.all(within: .seconds(5), "the end of \(process.name)'s stdout")
        let stderr = try await process.errorLines.all(within: .seconds(5), "the end of \(process.name)'s stderr")
        return Finished(status: status, stdout: stdout, stderr: stderr)
    }

    /// Runs the README's line here, as printed, to its exit.
    func run(_ line: ReadmeShellLine, within timeout: Duration) async throws -> Finished {
        let program = try #require(line.program, "\(line.command)")
        return try await run(program.executable, program.arguments, within: timeout)
    }

    /// Starts the README's line, a server, here; hands its URL (the first line it prints) to `body`, then stops it.
    func serve(_ line: ReadmeShellLine, _ body: (String, PeerProcess) async throws -> Void) async throws {
        let program = try #require(line.program, "\(line.command)")
        let server = try PeerProcess(executable: program.executable.path, arguments: program.arguments,
                                     name: line.command, directory: url)
        defer { server.stop() }
        let first = try await server.lines.next(within: .seconds(10), "\(line.command) to print its URL")
        let address = try #require(first, "\(line.command) printed nothing; stderr: \(server.stderr)")
        #expect(address.hasPrefix("ws://127.0.0.1:") && address.hasSuffix("/"), "\(address)")
        try await body(address, server)
    }

    func serve(_ line: ReadmeShellLine, _ body: (String) async throws -> Void) async throws {
        try await serve(line) { url, _ in try await body(url) }
    }

    /// A message a subscriber printed: its `t` and kind (`error` when it did not decode).
    struct Received: CustomStringConvertible {
        let t: Int?
        let kind: String
        var description: String { "t=\(t.map(String.init) ?? "?") \(kind)" }
    }

    /// `bcstream listen URL --key 118f91f:UdoBre1M --format ndjson` plus `extra`, to its exit (20 s at most); what
    /// it printed. Its stderr lines go to `notes`.
    func subscribe(_ address: String, _ extra: [String], notes: inout [String]) async throws -> [Received] {
        let result = try await run(BCStreamProcess.executable,
                                   ["listen", address, "--key", ReadmeCommandsTests.key, "--format", "ndjson"] + extra,
                                   within: .seconds(20))
        notes = result.stderr
        #expect(result.status == 0, "the subscriber: \(result.stderr)")
        return try result.stdout.map(Self.received)
    }

    /// A `--format ndjson` line read back.
    static func received(_ line: String) throws -> Received {
        let object = try Self.object(line)
        let kind = object["error"] == nil ? (object["kind"] as? String ?? "?") : "error"
        return Received(t: object["t"] as? Int, kind: kind)
    }

    func subscribe(_ address: String, _ extra: [String]) async throws -> [Received] {
        var notes: [String] = []
        return try await subscribe(address, extra, notes: &notes)
    }

    /// Records `live.ndjson` here as the README's `listen … --record live.ndjson` does, from a local `bcstream
    /// replay` instead of the service: viewer counts, joins, comments, gifts, cheer level-ups, then the live's end
    /// (more than 20 messages, for `--drop-after 20`).
    func record() async throws {
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay", "23", "3", "1", "35", "116", "8-live-ended-bare",
                                                 "--interval", "0"],
                                     name: "replay for the recording", directory: url)
        defer { replay.stop() }
        let first = try await replay.lines.next(within: .seconds(10), "replay to print its URL")
        let address = try #require(first, "replay printed nothing; stderr: \(replay.stderr)")
        let listen = try await run(BCStreamProcess.executable,
                                   ["listen", address, "--key", ReadmeCommandsTests.key, "--record", Self.recording],
                                   within: .seconds(20))
        try #require(listen.status == 0, "listen --record: \(listen.stderr)")
    }

    /// The kinds of the recorded messages, in order (`bcstream types`' names).
    func recordedKinds() throws -> [String] {
        let text = try String(contentsOf: url.appendingPathComponent(Self.recording), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let frame = try #require(try Self.object(String(line))["text"] as? String)
            let json = try #require(frame.split(separator: "\t", maxSplits: 2).last)
            let t = try #require(try Self.object(String(json))["t"] as? Int)
            return try #require(BCType(rawValue: t)?.name, "t=\(t)")
        }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
}
