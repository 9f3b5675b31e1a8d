import ArgumentParser
import BCConsole
import BCListener
import BCMessages
import BCReplay
import Foundation

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode bcsvr messages from files, folders or stdin and print them typed.",
        discussion: """
            Each line is read for what it is, so one file may mix them: bare JSON \
            ({"t":1,…}); a bcsvr line as the server sends it (MSG<TAB>key<TAB>{…}), \
            where ACK, ERR and other lines that are not messages are skipped and \
            counted; or a frame recorded by `bcstream listen --record`, whose text is \
            read as the bcsvr lines it holds (a binary or refused frame is reported \
            as not decodable). A file ending in .json is one message, as in \
            Tests/Payloads, even over several lines.

            FILE may be a folder: every file inside, recursively, in sorted order, \
            hidden ones left out. - (or no FILE) reads stdin, line by line as it \
            comes.

            Every message gives one line on stdout, in order. A message that fails \
            to decode, a line that is not UTF-8 or longer than 16 MiB, is printed \
            with its error, FILE:LINE and raw text, and decoding goes on. A file \
            that cannot be read (missing, no permission, binary) is reported on \
            stderr and the other files are decoded. Counts per kind go to stderr; \
            the exit status is 1 when any message failed or any file was not read, \
            64 for a wrong option.

            Examples:
              bcstream decode Tests/Payloads
              bcstream decode --format ndjson --strict session.ndjson
              bcstream listen URL --key K --record live.ndjson; bcstream decode live.ndjson
              printf '{"t":8}\\n' | bcstream decode - log.txt
            """
    )

    @Argument(help: ArgumentHelp(
        "Files or folders to decode (- is stdin, the default): .json fixtures, files of one message a line, recordings.",
        valueName: "file"))
    var files: [String] = []

    @Option(help: "Output format: text (one readable line per message) or ndjson ({\"t\":35,\"kind\":\"gift\",\"message\":{…}} per line).")
    var format: MessageFormatter.Format = .text

    @Flag(help: "Strict mode: report unknown kinds and keys the model does not know as errors.")
    var strict = false

    func run() throws {
        let run = DecodeRun(decoder: BCMessageDecoder(mode: strict ? .strict : .lenient),
                            formatter: MessageFormatter(format: format))
        for argument in files.isEmpty ? ["-"] : files {
            DecodeSource.forEach(in: argument, run.read, problem: run.report)
        }
        if run.finish() { throw ExitCode(1) }
    }
}

/// One run of `decode`: reads each input, prints a line per message, counts, and tells what could not be read.
final class DecodeRun {
    private let decoder: BCMessageDecoder
    private let formatter: MessageFormatter
    /// Reads recorded frames; kept, as a JSONDecoder is costly to make.
    private let frameDecoder = JSONDecoder()
    private var tally = DecodeTally()
    /// bcsvr lines that carry no message (ACK, ERR, commands).
    private var skipped = 0
    /// Inputs that could not be read, or only in part.
    private var unread = 0

    init(decoder: BCMessageDecoder, formatter: MessageFormatter) {
        self.decoder = decoder
        self.formatter = formatter
    }

    /// Decodes one input to the end; a problem reading it is reported and counted.
    func read(_ source: DecodeSource) {
        let descriptor: Int32
        if source == .standardInput {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(source.name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                return report(.unreadable(path: source.name, reason: DecodeProblem.reason(errno: errno)))
            }
        }
        defer { if source != .standardInput { close(descriptor) } }
        let reader = LineReader(descriptor: descriptor)
        do {
            switch source {
            case .fixture(let path):
                let bytes = try reader.readAll()
                if let text = String(validating: bytes, as: UTF8.self) {
                    decode(text, key: nil, location: path)
                } else {
                    show(DecodeInput.notUTF8(bytes), location: path)
                }
            case .lines, .standardInput:
                try reader.forEachLine({ number, line in
                    let location = "\(source.name):\(number)"
                    switch line {
                    case .tooLong(let bytes):
                        show(DecodeInput.tooLong(bytes: bytes, limit: reader.maxLineBytes), location: location)
                    case .bytes(let bytes):
                        guard let text = String(validating: bytes, as: UTF8.self) else {
                            return show(DecodeInput.notUTF8(bytes), location: location)
                        }
                        for input in DecodeInput.detect(text, decoder: frameDecoder) {
                            show(input, location: location)
                        }
                    }
                }, chunkDone: {
                    // stdin may be a live feed (`tail -f log | bcstream decode`): what it gave is shown now.
                    if source == .standardInput { fflush(nil) }
                })
            }
        } catch {
            report(DecodeProblem(error, source: source))
        }
    }

    /// Tells on stderr why an input was not read, after what stdout holds so far.
    func report(_ problem: DecodeProblem) {
        if problem.isFailure { unread += 1 }
        fflush(nil)  // every stream: stdout
        FileHandle.standardError.write(Data("bcstream decode: \(reportLine(problem.description))\n".utf8))
    }

    /// Prints the summary on stderr; true when the run failed (a message or an input).
    func finish() -> Bool {
        var summary = tally.summary
        if skipped > 0 { summary += "; \(skipped) line\(skipped == 1 ? "" : "s") skipped (not messages)" }
        if unread > 0 { summary += "; \(unread) input\(unread == 1 ? "" : "s") not read" }
        fflush(nil)  // every stream: stdout
        FileHandle.standardError.write(Data("bcstream decode: \(TerminalText.escaped(summary))\n".utf8))
        return tally.errors > 0 || unread > 0
    }

    private func show(_ input: DecodeInput, location: String) {
        switch input {
        case .message(let json, let key):
            decode(json, key: key, location: location)
        case .skipped:
            skipped += 1
        case .notDecodable(let reason, let raw, let key):
            tally.countError()
            print(formatter.line(forUndecodable: reason, raw: raw, key: key, location: location))
        }
    }

    private func decode(_ json: String, key: String?, location: String) {
        do {
            let response = try decoder.decode(json)
            tally.count(response)
            print(formatter.line(for: response, raw: json, key: key))
        } catch {
            tally.countError()
            print(formatter.line(for: error, raw: json, key: key, location: location))
        }
    }
}

extension MessageFormatter.Format: ExpressibleByArgument {}
