import ArgumentParser
import BCAudit
import BCConsole
import BCListener
import BCMessages
import BCReplay
import Foundation
import Synchronization

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Compare captures with the model: new keys and kinds, type drift.",
        usage: "bcstream audit [<file> ...] [--format text|json] [--keys]\n               [--baseline report.json] [--fail-on-drift]",
        discussion: """
            Reads recordings (listen --record), logs of listen --format ndjson, \
            bcsvr MSG lines and bare JSON messages, one a line, and reports per \
            kind: how many messages; every key the model does not know, at any \
            depth (rankings[].x), with count, JSON types and a sample; every known \
            key seen with more than one JSON type, or with a type its declared \
            form does not accept (coins: string 98%, number 2%); required keys \
            missing; unknown kinds with a sample; lines that could not be read. \
            The keys the model knows come from the catalogue (BCType.wireFields).

            An NDJSON log keeps only the model's re-encoding of a message that \
            decoded: those are counted, their keys not compared. Unknown kinds \
            and failed messages keep their wire keys in a log, and are compared; \
            so audit a recording, or a log of listen --strict --format ndjson, \
            where a message with an unknown key fails. A .json file is one \
            message, as in Tests/Payloads.

            --baseline compares with an earlier --format json --keys report and \
            reports only what it did not have: a new key, kind or missing key \
            it did not list, and as drift a key seen with a JSON type it never \
            had there (coins: always a string before, now a number too).

            At most 1000 key paths per kind and 256 unknown kinds are tracked; \
            the report says when a limit was reached. Text quoted from the \
            input is escaped; samples are cut at 60 characters.

            Exit status: 0 (also with findings, unless --fail-on-drift); 3 with \
            --fail-on-drift when a new key, a new kind, a drift or a missing \
            required key was found; 1 when an input could not be read; 64 for \
            a wrong option.

            Examples:
              bcstream audit live.ndjson
              bcstream audit --format json --keys monday.ndjson > monday.json
              bcstream audit --baseline monday.json --fail-on-drift tuesday.ndjson
              bcstream listen wss://host/ --key K --audit
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    /// The exit status of `--fail-on-drift` when the audit found something.
    static let driftStatus: Int32 = 3

    @Argument(help: ArgumentHelp(
        "Recordings, NDJSON logs or folders of them (- is stdin, the default).", valueName: "file"))
    var files: [String] = []

    @Option(help: "Output format: text (a report for people) or json (one document, schema bcstream-audit/1).")
    var format: Format = .text

    @Flag(help: "Exit 3 when a new key, kind, type drift or missing required key is found.")
    var failOnDrift = false

    @Flag(help: "Also list every known key seen, with the JSON types it came as.")
    var keys = false

    @Option(help: ArgumentHelp(
        "Report only what this earlier report (--format json --keys) did not have.", valueName: "report.json"))
    var baseline: String?

    func run() throws {
        var audit = Audit()
        var unread = 0
        for argument in files.isEmpty ? ["-"] : files {
            DecodeSource.forEach(in: argument, { source in
                if !Self.read(source, into: &audit) { unread += 1 }
            }, problem: { problem in
                if problem.isFailure { unread += 1 }
                Self.note(problem.description)
            })
        }
        var report = audit.report(listingKnownKeys: keys || baseline != nil)
        if let baseline {
            report = report.comparing(with: try Self.earlierReport(baseline), named: baseline)
            if !keys { for index in report.kinds.indices { report.kinds[index].keys = nil } }
        }
        switch format {
        case .text:
            print(report.text(columns: TerminalColumns.width(of: STDOUT_FILENO).map { min($0, 100) } ?? 80),
                  terminator: "")
        case .json:
            print(try Self.json(report))
        }
        if unread > 0 { throw ExitCode(1) }
        if failOnDrift && report.findings.total > 0 { throw ExitCode(Self.driftStatus) }
    }

    /// A report `--format json` wrote earlier.
    static func earlierReport(_ path: String) throws -> AuditReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read the baseline \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(AuditReport.self, from: data)
        } catch {
            throw CommandFailure("\(path) is not a report of `bcstream audit --format json` (\(AuditReport.schemaVersion))")
        }
    }

    /// The report as `--format json` prints it: pretty, keys sorted, so that two runs compare with `diff`.
    static func json(_ report: AuditReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// Audits one input to its end; false when it could not be read (said on stderr).
    static func read(_ source: DecodeSource, into audit: inout Audit) -> Bool {
        let descriptor: Int32
        if source == .standardInput {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(source.name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                note(DecodeProblem.unreadable(path: source.name, reason: DecodeProblem.reason(errno: errno)).description)
                return false
            }
        }
        defer { if source != .standardInput { close(descriptor) } }
        let reader = LineReader(descriptor: descriptor)
        do {
            switch source {
            case .fixture(let path):
                // A fixture of Tests/Payloads: one message, possibly over several lines.
                let bytes = try reader.readAll()
                let location = AuditLocation(source: path, line: 1)
                if let text = String(validating: bytes, as: UTF8.self) {
                    audit.add(message: text, at: location)
                } else {
                    audit.addBadLine(reason: "not UTF-8 text", at: location)
                }
            case .lines, .standardInput:
                try reader.forEachLine { number, line in
                    let location = AuditLocation(source: source.name, line: number)
                    switch line {
                    case .tooLong(let bytes):
                        audit.addBadLine(reason: "a line of \(bytes) bytes, longer than the limit; skipped", at: location)
                    case .bytes(let bytes):
                        guard let text = String(validating: bytes, as: UTF8.self) else {
                            return audit.addBadLine(reason: "not UTF-8 text", at: location)
                        }
                        audit.add(line: text, at: location)
                    }
                }
            }
            return true
        } catch {
            note(DecodeProblem(error, source: source).description)
            return false
        }
    }

    static func note(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("bcstream audit: \(reportLine(text))\n".utf8))
    }
}

/// `listen --audit`: the messages of a live session audited as they arrive, the report printed on stderr at the
/// end. Fed from every channel's task, hence the lock.
final class LiveAudit: Sendable {
    private struct State {
        var audit = Audit()
        var numbers: [String: Int] = [:]

        /// The location of the channel's next message: `KEY:N`.
        mutating func next(_ key: String) -> AuditLocation {
            numbers[key, default: 0] += 1
            return AuditLocation(source: key, line: numbers[key]!)
        }
    }
    private let state = Mutex(State())

    /// Audits one event's wire text: a message (decoded or not) of the channel `key`, numbered per channel.
    func observe(_ event: BCListenerEvent, key: String) {
        switch event {
        case .message(_, let json, _, _):
            state.withLock { state in state.audit.add(message: json, at: state.next(key)) }
        case .undecodable(.some, let line, _):
            // The whole line as received (`MSG<TAB>key<TAB>{…}`): read as `audit` reads a line.
            state.withLock { state in state.audit.add(line: line, at: state.next(key)) }
        default:
            return
        }
    }

    /// The report, on stderr.
    func printReport() {
        let report = state.withLock { $0.audit.report() }
        fflush(nil)
        FileHandle.standardError.write(Data(("bcstream listen --audit (locations are KEY:MESSAGE):\n"
            + report.text(columns: TerminalColumns.width(of: STDERR_FILENO).map { min($0, 100) } ?? 80)).utf8))
    }
}
