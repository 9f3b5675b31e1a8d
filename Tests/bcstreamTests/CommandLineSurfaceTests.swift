import Foundation
import Testing

/// What a person meets first: help that reads on an 80-column terminal, a version, and typos that fail.
@Suite("The command line's surface")
struct CommandLineSurfaceTests {
    static let subcommands = ["demo", "listen", "replay", "decode", "types", "audit", "fixture", "worker", "follow"]

    @Test("help fits 80 columns", arguments: [[]] + subcommands.map { [$0] } + [["fixture", "add"]])
    func helpFits80Columns(subcommand: [String]) throws {
        let result = try BCStreamProcess.run(subcommand + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: bcstream"))
        let long = result.stdout.split(separator: "\n").map(String.init).filter { $0.count > 80 }
        #expect(long.isEmpty, "lines over 80 columns in `bcstream \(subcommand.joined()) --help`:\n\(long.joined(separator: "\n"))")
    }

    @Test("--version prints the package's version")
    func version() throws {
        let result = try BCStreamProcess.run(["--version"])
        #expect(result.status == 0)
        let printed = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.split(separator: ".").count == 3 && printed.allSatisfy { $0.isNumber || $0 == "." },
                "not a version: \(printed)")
    }

    @Test("help about an unknown subcommand is a usage error that names the real ones")
    func helpAboutAnUnknownSubcommand() throws {
        let result = try BCStreamProcess.run(["help", "lisen"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no subcommand named 'lisen'"))
        #expect(result.stderr.contains("listen"))
        #expect(!result.stdout.contains("OVERVIEW"), "the root help is not printed as if the topic existed")
    }

    @Test("an unknown subcommand is a usage error", arguments: [["lisen"], ["decode", "--nosuch"]])
    func unknownSubcommand(arguments: [String]) throws {
        let result = try BCStreamProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
    }

    @Test("help about a real subcommand still works", arguments: subcommands)
    func helpAboutASubcommand(name: String) throws {
        let result = try BCStreamProcess.run(["help", name])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: bcstream \(name)"))
    }

    /// The bench is its own program (bcstream-bench), which users' bcstream does not carry: help does not list
    /// it, and `bcstream bench` with any options says where it went, as a failure (1), not a usage error.
    @Test("bench is not in help, and `bcstream bench` points to bcstream-bench",
          arguments: [["bench"], ["bench", "--end-to-end", "--messages", "10"], ["bench", "--corpus", "captured-style"]])
    func benchIsElsewhere(arguments: [String]) throws {
        let help = try BCStreamProcess.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("demo"), "\(help.stdout)")
        #expect(!help.stdout.contains("bench"), "\(help.stdout)")
        let result = try BCStreamProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains("run `bcstream-bench` with the same options"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing measured")
    }

    @Test("a port in use fails with the reason and exit 1, not a usage error")
    func portInUse() throws {
        let first = try BCStreamProcess.start(["replay", "--port", "0", "--keep-open"])
        defer { first.terminate() }
        let url = try #require(first.readLine(), "replay prints its URL first")
        let port = try #require(url.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let second = try BCStreamProcess.run(["replay", "--port", port])
        #expect(second.status == 1)
        #expect(second.stderr.contains("port \(port) on 127.0.0.1 is already in use by another process"), "\(second.stderr)")
        #expect(second.stderr.contains("--port"), "says what to do")
        #expect(!second.stderr.contains("Usage:"))
    }

    /// Each command that takes a key from its user checks it before anything is sent or queued; the error shows
    /// the key escaped (no raw line break, TAB or escape on the terminal). NATS at a port nobody listens on: a
    /// key that got through would fail later, with another message.
    @Test("a --key that would break the SUB line is a usage error naming --key, the key escaped", arguments: [
        ["follow", "--nats", "nats://127.0.0.1:1", "ws://127.0.0.1:1/"],
        ["listen", "ws://127.0.0.1:1/"],
    ])
    func hostileKeyOption(command: [String]) throws {
        let result = try BCStreamProcess.run(command + ["--key", "c2\nSUB\tvictim4\u{1B}[2J"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(#"--key: a key with a line break in it"#), "\(result.stderr)")
        #expect(result.stderr.contains(#"c2\u{A}SUB\tvictim4\u{1B}[2J"#), "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\t" })
        #expect(result.stdout.isEmpty, "nothing queued: \(result.stdout)")
    }
}
