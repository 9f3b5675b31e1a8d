// The libFuzzer target of bcsvr lines: a text frame as the listener reads a server's (BCSVRLine.forEachLine,
// BCSVRLine.message(in:ofKey:), BCSVRLine(_:), rejection, problem) and as the replay server reads a client's
// (BCSVRLine.lines(in:), then the PING and SUB words: ReplayServer.command, which is inside the actor, reads
// nothing more than a line's prefix).
//
// Input: the frame's bytes (a frame that is not UTF-8 is read with replacement characters, as a String holds it).
//
// Holds, for every input: no trap; `lines(in:)` gives exactly what a plain split of the UTF-8 bytes on `\n` gives
// (a trailing `\r` dropped, lines of only spaces, TABs and CRs left out), and `forEachLine` the same lines; each
// line parses as a plain split on its first two TABs says; the shortcut `message(in:ofKey:)`, when it answers,
// answers what parsing the line and `rejection(subscribedKey:)` give, for the line's own key, another key and
// the empty key; what a person reads of a line (`problem`) stays bounded.

@testable import BCListener
import BCMessages

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let frame = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    FuzzBCSVRLines.check(frame)
    return 0
}

enum FuzzBCSVRLines {
    static func check(_ frame: String) {
        let lines = BCSVRLine.lines(in: frame)
        let expected = referenceLines(Array(frame.utf8))
        require(lines.map { Array($0.utf8) } == expected, "lines(in:) \(lines) but a plain split gives \(expected)")
        var each: [Substring] = []
        BCSVRLine.forEachLine(in: frame) { each.append($0); return true }
        require(each == lines, "forEachLine gave \(each), lines(in:) \(lines)")
        require(BCSVRLine.parse(frame: frame) == lines.map { BCSVRLine($0) })
        for line in lines {
            let parsed = BCSVRLine(line)
            require(parsed == reference(line), "\(line.debugDescription) parsed as \(parsed), expected \(reference(line))")
            var keys = ["", "118f91f:UdoBre1M", "k\t1"]
            if case .message(let key, _) = parsed { keys.append(key) }
            for key in keys {
                guard let json = BCSVRLine.message(in: line, ofKey: key) else { continue }
                require(parsed == .message(key: key, json: json) && parsed.rejection(subscribedKey: key) == nil,
                             "message(in:ofKey: \(key.debugDescription)) took \(line.debugDescription), which parses as \(parsed)")
            }
            if let problem = parsed.problem { require(problem.count <= 400, "a problem of \(problem.count) characters") }
            if let rejection = parsed.rejection(subscribedKey: "k:1") {
                require(rejection.description.count <= 600)
            }
            // The replay server's reading of a client's line: the key after `SUB\t` becomes a ChannelKey or is
            // refused; an accepted key makes exactly one SUB line that reads back as the same key.
            if line.hasPrefix("SUB\t") {
                let text = String(line.dropFirst(4))
                require(text.utf8.count == line.utf8.count - 4)
                checkKey(text)
            }
        }
    }

    /// A key is accepted exactly when it is non-empty, at most `maxBytes` bytes and free of spaces, controls and
    /// format characters; an accepted key's SUB line is one line that splits back into `SUB` and the key.
    static func checkKey(_ text: String) {
        let forbidden = text.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format: true
            default: false
            }
        }
        let valid = !text.isEmpty && text.utf8.count <= ChannelKey.maxBytes && !forbidden
        do {
            let key = try ChannelKey(text, from: "a fuzzed SUB line")
            require(valid, "ChannelKey accepted \(text.debugDescription)")
            let line = BCSVRCommand.subscribe(key: key).text
            require(BCSVRLine.lines(in: line) == [Substring(line)], "the SUB line of \(text.debugDescription) is not one line")
            require(line.utf8.split(separator: 9, omittingEmptySubsequences: false).count == 2)
        } catch {
            require(!valid, "ChannelKey refused \(text.debugDescription): \(error)")
            require(error.description.count <= 1200, "a refusal of \(error.description.count) characters")
            // What a terminal would act on (TerminalText's list: C0 and C1 controls, bidi controls) is escaped.
            require(TerminalText.escaped(error.description) == error.description,
                    "the refusal shows a character a terminal acts on: \(error.description.debugDescription)")
        }
    }

    /// The lines of a frame by a plain split of its bytes.
    static func referenceLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        func end() {
            if current.last == 13 { current.removeLast() }
            if current.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) { lines.append(current) }
            current = []
        }
        for byte in bytes {
            if byte == 10 { end() } else { current.append(byte) }
        }
        end()
        return lines
    }

    /// A line parsed by a plain split of its bytes on its first two TABs (protocol.md: at most three fields).
    static func reference(_ line: Substring) -> BCSVRLine {
        var bytes = Array(line.utf8)
        if bytes.last == 13 { bytes.removeLast() }
        let fields = bytes.split(separator: 9, maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let whole = String(decoding: bytes, as: UTF8.self)
        switch fields[0] {
        case "MSG" where fields.count == 3: return .message(key: fields[1], json: fields[2])
        case "ACK": return .ack(fields.count > 1 ? String(decoding: bytes.dropFirst(4), as: UTF8.self) : nil)
        case "ERR": return .error(fields.count > 1 ? String(decoding: bytes.dropFirst(4), as: UTF8.self) : "")
        default: return .unknown(whole)
        }
    }
}
