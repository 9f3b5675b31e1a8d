import ArgumentParser
import BCListener
import BCMessages
import Foundation

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode bcsvr messages from files or stdin and print them typed.",
        discussion: """
            Input is one message per line, either bare JSON ({"t":1,…}) or a bcsvr line as the server \
            sends it (MSG<TAB>key<TAB>{…}); lines that are not messages (ACK, blank) are skipped and \
            counted. A file ending in .json is one message, as in Tests/Payloads. With no FILE, stdin \
            is read.

            Every message gives one line on stdout, in order. A message that fails to decode is printed \
            with its error and its raw text, and decoding goes on. A summary of counts per kind goes to \
            stderr; the exit status is 1 when any message failed.

            Examples:
              bcstream decode Tests/Payloads/*.json
              bcstream decode --format ndjson --strict session.ndjson
              printf '{"t":23,"online_viewer_num":44,"total_viewer_num":120}\\n' | bcstream decode
            """
    )

    @Argument(help: "Files to decode: .json fixtures (one message each) or files of one message per line. Default: stdin.")
    var files: [String] = []

    @Option(help: "Output format: text (one readable line per message) or ndjson ({\"t\":35,\"kind\":\"gift\",\"message\":{…}} per line).")
    var format: MessageFormatter.Format = .text

    @Flag(help: "Strict mode: report unknown kinds and keys the model does not know as errors.")
    var strict = false

    func run() throws {
        let decoder = BCMessageDecoder(mode: strict ? .strict : .lenient)
        let formatter = MessageFormatter(format: format)
        var tally = DecodeTally()
        var skipped = 0

        func decodeOne(_ json: String, key: String?, location: String) {
            do {
                let response = try decoder.decode(json)
                tally.count(response)
                print(formatter.line(for: response, raw: json, key: key))
            } catch {
                tally.countError()
                print(formatter.line(for: error, raw: json, key: key, location: location))
            }
        }

        func decodeLines(_ lines: some Sequence<Substring>, source: String) {
            for (index, line) in lines.enumerated() {
                switch InputLine(line) {
                case .message(let json, let key): decodeOne(json, key: key, location: "\(source):\(index + 1)")
                case .other: if !line.allSatisfy(\.isWhitespace) { skipped += 1 }
                }
            }
        }

        if files.isEmpty {
            decodeLines(AnySequence { AnyIterator { readLine(strippingNewline: true).map { Substring($0) } } },
                        source: "stdin")
        }
        for path in files {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError(TerminalText.escaped("cannot read \(path): \(error.localizedDescription)"))
            }
            if path.hasSuffix(".json") {
                decodeOne(text, key: nil, location: path)
            } else {
                // Split on every line break, \r\n included: it is one Character, which a split on "\n" would
                // not cut. Empty lines are kept so that line numbers in errors stay right.
                decodeLines(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline), source: path)
            }
        }

        var summary = tally.summary
        if skipped > 0 { summary += "; \(skipped) line\(skipped == 1 ? "" : "s") skipped (not messages)" }
        FileHandle.standardError.write(Data("bcstream decode: \(summary)\n".utf8))
        if tally.errors > 0 { throw ExitCode(1) }
    }
}

/// One line of `decode`'s input: a message (bare JSON or a bcsvr `MSG` line) or something else.
enum InputLine {
    case message(json: String, key: String?)
    case other

    init(_ line: Substring) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            self = .other
            return
        }
        switch BCSVRLine(trimmed) {
        case .message(let key, let json): self = .message(json: json, key: key)
        case .ack, .error: self = .other
        // Anything else is meant as a message: if it is not one, the decoder says why.
        case .unknown: self = .message(json: trimmed, key: nil)
        }
    }
}

extension MessageFormatter.Format: ExpressibleByArgument {}
