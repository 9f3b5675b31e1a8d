import Foundation
import TestSupport
import Testing

/// Hostile text (names, comments, raw lines, keys, file names with ESC, BEL, CR, LF, C1 and bidi controls) in
/// the text output of `decode`, `listen` and `replay`: every line stays one line, shows the controls as `\u{1B}`
/// escapes and drives nothing on the terminal; long quotes are cut; NDJSON stays exact JSON.
@Suite(.timeLimit(.minutes(1))) struct TerminalSafeOutputTests {
    // MARK: - What is safe

    /// The scalars a terminal acts on, as the issue lists them (written out here, not taken from the code under
    /// test). LF is allowed only as the end of a line, which the checks below split on.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029: true
        default: false
        }
    }

    /// The unsafe scalars of `line`, as U+XXXX, for failure messages.
    static func unsafeScalars(in line: String) -> [String] {
        line.unicodeScalars.filter(isUnsafe).map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// `lines` for a failure message: each cut to 200 scalars, its unsafe scalars as U+XXXX, so that a failing
    /// test neither floods nor drives the terminal it reports to.
    static func shown(_ lines: some Sequence<String>) -> String {
        lines.map { line in
            line.unicodeScalars.prefix(200).map { isUnsafe($0) ? "<U+\(String($0.value, radix: 16, uppercase: true))>" : String($0) }
                .joined() + (line.unicodeScalars.count > 200 ? "…" : "")
        }.joined(separator: "\n")
    }

    /// `output` split into its lines, after checking that it is lines ending in LF with no unsafe scalar.
    static func safeLines(of output: String, _ what: String,
                          sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        #expect(output.isEmpty || output.hasSuffix("\n"), "\(what) ends with a line break", sourceLocation: sourceLocation)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for line in lines {
            let unsafe = unsafeScalars(in: line)
            #expect(unsafe.isEmpty, "\(what) has \(unsafe) in: \(shown([line]))", sourceLocation: sourceLocation)
        }
        return lines
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bcstream-safe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs the built `bcstream` to its end with stdout and stderr going to files, read afterwards: a hostile
    /// line can be far larger than a pipe's buffer, which would stall a child whose pipes are read one by one.
    /// The blocking wait runs on a thread of its own, off the cooperative pool.
    static func runToFiles(_ arguments: [String]) async throws -> BCStreamProcess.Result {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = BCStreamProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = BCStreamProcess.repository
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    try process.run()
                    process.waitUntilExit()
                    continuation.resume(returning: process.terminationStatus)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return BCStreamProcess.Result(status: status,
                                      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    // MARK: - Inputs

    /// The issue's comment: its controls are JSON escapes, which the decoder turns into the raw characters.
    static let hostileComment = #"{"t":1,"u":"1","ac":"\u001b]0;pwned\u0007Eve\r\u001b[2J","cm":"hi\u001b[31m\nforged line\u009b2J\u202Eevil","lci":"1"}"#
    /// How its text line ends once escaped.
    static let hostileCommentSummary = #"\u{1B}]0;pwned\u{7}Eve\u{D}\u{1B}[2J: hi\u{1B}[31m\u{A}forged line\u{9B}2J\u{202E}evil"#
    /// Not JSON: raw ESC, BEL, C1 CSI and RLO in the text itself, which the error quotes.
    static let rawControlsLine = #"{"t":1,"ac":"\#u{1B}[2J\#u{7}\#u{9B}\#u{202E}"}"#
    /// A gift whose count is a string with an escape, which the error quotes as the value found.
    static let hostileGiftCount = #"{"t":35,"u":"1","ac":"x","gift_id":"2","gift_title":"H","coins":"1","count":"\u001b[31meight"}"#
    /// An unknown kind whose key names carry controls.
    static let hostileUnknownKind = #"{"t":999,"\u001b[2Jkey\u2066":"\u200f\u0085"}"#

    // MARK: - decode

    @Test func decodeTextShowsNamesAndCommentsEscapedOnOneLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.txt")
        try Data([Self.hostileComment, #"{"t":8}"#, Self.hostileUnknownKind].joined(separator: "\n").utf8).write(to: file)

        let result = try BCStreamProcess.run(["decode", file.path])

        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.safeLines(of: result.stdout, "stdout")
        #expect(lines.count == 3, "one line per message: \(Self.shown(lines))")
        #expect(lines.first?.hasPrefix("t=1    comment") == true)
        #expect(lines.first?.hasSuffix(" " + Self.hostileCommentSummary) == true, "\(Self.shown(lines))")
        #expect(lines.last?.hasSuffix(#"with keys \u{1B}[2Jkey\u{2066}"#) == true, "\(Self.shown(lines))")
        _ = Self.safeLines(of: result.stderr, "stderr")
    }

    @Test func decodeTextErrorLinesEscapeTheRawExcerptAndTheValueFound() throws {
        let input = [Self.rawControlsLine, Self.hostileGiftCount].joined(separator: "\n") + "\n"
        let result = try BCStreamProcess.run(["decode"], stdin: input)

        #expect(result.status == 1)
        let lines = Self.safeLines(of: result.stdout, "stdout")
        #expect(lines.count == 2, "one line per message: \(Self.shown(lines))")
        #expect(lines.first?.contains(#"stdin:1: "#) == true)
        #expect(lines.first?.hasSuffix(#"in {"t":1,"ac":"\u{1B}[2J\u{7}\u{9B}\u{202E}"}"#) == true, "\(Self.shown(lines))")
        #expect(lines.last?.contains(#"found "\u{1B}[31meight""#) == true, "\(Self.shown(lines))")
    }

    /// A `.json` file is one message, line breaks included: a malformed one with CR and LF in it still gives
    /// one error line. Its file name, with ESC, BEL and a line break, is the error's location.
    @Test func decodeShowsAFileNameAndAMultiLineMessageOnOneLine() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "evil\u{1B}]0;owned\u{7}\nforged\u{202E}.json"
        let file = directory.appendingPathComponent(name)
        try Data("{\"t\":1,\r\n\"cm\":\"one\nt=1    comment  forged: line\"\r\n".utf8).write(to: file)

        let result = try BCStreamProcess.run(["decode", file.path])

        #expect(result.status == 1)
        let lines = Self.safeLines(of: result.stdout, "stdout")
        #expect(lines.count == 1, "one line for the one message: \(Self.shown(lines))")
        let escapedName = #"evil\u{1B}]0;owned\u{7}\u{A}forged\u{202E}.json"#
        #expect(lines.first?.contains(escapedName + ": ") == true, "the location, escaped: \(Self.shown(lines))")
        #expect(lines.first?.contains(#"{"t":1,\u{D}\u{A}"cm":"one\u{A}t=1    comment  forged: line""#) == true, "\(Self.shown(lines))")

        // A file that cannot be read is named in the error on stderr, escaped too.
        let missing = try BCStreamProcess.run(["decode", directory.appendingPathComponent("no\u{1B}[2Jsuch\u{9B}").path])
        #expect(missing.status != 0)
        let errors = Self.safeLines(of: missing.stderr, "stderr")
        #expect(errors.contains { $0.contains(#"no\u{1B}[2Jsuch\u{9B}"#) }, "\(Self.shown(errors))")
    }

    /// NDJSON is not escaped for the terminal: it is byte for byte what it was before, exact JSON whose strings
    /// read back as the text received. JSON escapes the C0 controls; C1 and bidi controls stay as UTF-8 in strings.
    @Test func decodeNDJSONStaysExactJSON() throws {
        let input = [Self.hostileComment, Self.rawControlsLine, Self.hostileUnknownKind].joined(separator: "\n") + "\n"
        let result = try BCStreamProcess.run(["decode", "--format", "ndjson"], stdin: input)

        #expect(result.status == 1)
        let expected = [
            #"{"t":1,"kind":"comment","message":{"ac":"\u001b]0;pwned\u0007Eve\r\u001b[2J","cm":"hi\u001b[31m\nforged line\#u{9B}2J\#u{202E}evil","lci":"1","t":1,"u":"1"}}"#,
            #"{"t":1,"kind":"comment","source":"stdin:2","error":"t=1 (comment) expected a JSON object, found text that is not valid JSON in {\"t\":1,\"ac\":\"\u001b[2J\u0007\#u{9B}\#u{202E}\"}","raw":"{\"t\":1,\"ac\":\"\u001b[2J\u0007\#u{9B}\#u{202E}\"}"}"#,
            #"{"t":999,"kind":"unknown","raw":{"\u001b[2Jkey\#u{2066}":"\#u{200F}\#u{85}","t":999}}"#,
        ]
        #expect(result.stdout == expected.map { $0 + "\n" }.joined(), "byte for byte as before")

        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } }, "JSON escapes C0")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let message = try #require(objects[0]["message"] as? [String: Any])
        #expect(message["cm"] as? String == "hi\u{1B}[31m\nforged line\u{9B}2J\u{202E}evil")
        #expect(message["ac"] as? String == "\u{1B}]0;pwned\u{7}Eve\r\u{1B}[2J")
        #expect(objects[1]["raw"] as? String == Self.rawControlsLine, "the raw text round-trips")
        let raw = try #require(objects[2]["raw"] as? [String: Any])
        #expect(raw["\u{1B}[2Jkey\u{2066}"] as? String == "\u{200F}\u{85}")
    }

    // MARK: - listen

    /// A bcsvr server (Python `websockets`) that answers `SUB` with hostile lines: `ERR` with controls, an
    /// unknown command with controls, another one of one character and 100,000 combining marks, a `MSG` for a
    /// key with controls, the hostile comment, an undecodable gift, and t=8.
    static let hostileServer = #"""
        import asyncio, json, sys
        from websockets.asyncio.server import serve

        def frames(key):
            return [
                "ERR\t\u001b]0;pwned\u0007\u009b2J",
                "\u001b[2JEVIL\targ\u0007\u202e",
                "X" + "\u0301" * 100000,
                "MSG\tother\u001b[31m:key\t" + json.dumps({"t": 23, "online_viewer_num": 1, "total_viewer_num": 2}),
                "MSG\t" + key + "\t" + sys.argv[1],
                "MSG\t" + key + "\t" + sys.argv[2],
                "MSG\t" + key + "\t{\"t\":8}",
            ]

        async def handler(ws):
            async for frame in ws:
                if frame.startswith("SUB\t"):
                    for text in frames(frame[4:]):
                        await ws.send(text)
                elif frame.startswith("PING"):
                    await ws.send("ACK" + frame[4:])

        async def main():
            async with serve(handler, "127.0.0.1", 0, max_size=None) as server:
                print(server.sockets[0].getsockname()[1], flush=True)
                await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

        asyncio.run(main())
        """#

    @Test func listenShowsWhatTheServerSentEscapedAndCut() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("hostile_bcsvr.py")
        try Data(Self.hostileServer.utf8).write(to: script)
        let server = try PeerProcess(executable: "/usr/bin/env",
                                     arguments: ["python3", "-u", script.path, Self.hostileComment, Self.hostileGiftCount],
                                     name: "hostile bcsvr server")
        defer { server.stop() }
        let port = try await server.port()

        // It ends at t=8; --duration bounds it if it did not.
        let listen = try await Self.runToFiles(["listen", "ws://127.0.0.1:\(port)/", "--key", "k:1", "--duration", "20"])
        #expect(listen.status == 0, "the live ended: \(Self.shown(listen.stderr.split(separator: "\n").map(String.init)))")

        // Messages: the comment, the gift's error, t=8; one line each, escaped.
        let lines = Self.safeLines(of: listen.stdout, "stdout")
        #expect(lines.count == 3, "\(Self.shown(lines))")
        #expect(lines.first?.hasSuffix(" " + Self.hostileCommentSummary) == true, "\(Self.shown(lines))")
        #expect(lines.dropFirst().first?.contains(#"found "\u{1B}[31meight""#) == true, "\(Self.shown(lines))")

        // Problems, on stderr: the server's ERR, the unknown commands, the MSG of another key.
        let notes = Self.safeLines(of: listen.stderr, "stderr")
        #expect(notes.contains { $0.contains(#"ERR: \u{1B}]0;pwned\u{7}\u{9B}2J"#) }, "\(Self.shown(notes))")
        #expect(notes.contains { $0.contains(#"\u{1B}[2JEVIL\targ\u{7}\u{202E}"#) }, "\(Self.shown(notes))")
        #expect(notes.contains { $0.contains(#"other\u{1B}[31m:key"#) }, "\(Self.shown(notes))")
        // Found by its scalars: as characters, "X" and its 100,000 marks are one, which no shorter text matches.
        let long = try #require(notes.first { $0.unicodeScalars.contains("\u{301}") },
                                "the long unknown command is reported: \(Self.shown(notes))")
        #expect(long.unicodeScalars.count <= 1100, "cut, not 100,000 combining marks: \(long.unicodeScalars.count) scalars")
        #expect(long.hasSuffix(" bytes)"), "\(Self.shown([String(long.unicodeScalars.suffix(40))]))")
    }

    // MARK: - replay

    /// A client whose `SUB` frame holds more lines: a second `SUB` with a key with controls (refused: not a channel
    /// key), an unknown command with controls, and one of one character and 50,000 combining marks. The server's
    /// activity log shows them escaped and cut.
    @Test func replayLogsWhatClientsSentEscapedAndCut() async throws {
        let replay = try PeerProcess(executable: BCStreamProcess.executable.path,
                                     arguments: ["replay", "Tests/Payloads/8-live-ended-bare.json", "--interval", "0"],
                                     name: "bcstream replay")
        defer { replay.stop() }
        let url = try #require(try await replay.lines.next(within: .seconds(10), "the replay URL"))

        let key = "k:1\nSUB\tk\u{1B}]0;pwned\u{7}\n\u{1B}[2Jevil\u{9B}\u{202E}cmd\nY"
            + String(repeating: "\u{301}", count: 50_000)
        let client = try BCStreamProcess.runPython(["Tests/Peers/bcsvr_client.py", url, key])
        #expect(client.status == 0, "the client ends when replay closes: \(client.stderr)")
        let status = try await replay.exitStatus(within: .seconds(10))
        let stderr = try await replay.errorLines.all(within: .seconds(5), "the end of replay's stderr")
        #expect(status == 0)

        let log = Self.safeLines(of: stderr.map { $0 + "\n" }.joined(), "replay's stderr")
        #expect(log.contains { $0.hasSuffix(" subscribed to k:1") }, "\(Self.shown(log))")
        #expect(log.contains { $0.contains("sent SUB with a key with U+001B in it")
            && $0.hasSuffix(#": k\u{1B}]0;pwned\u{7}; answered ERR"#) }, "\(Self.shown(log))")
        #expect(log.contains { $0.hasSuffix(#"not bcsvr: \u{1B}[2Jevil\u{9B}\u{202E}cmd"#) }, "\(Self.shown(log))")
        let long = try #require(log.first { $0.unicodeScalars.contains("\u{301}") }, "\(Self.shown(log))")
        #expect(long.unicodeScalars.count < 400, "cut, not 50,000 combining marks: \(long.unicodeScalars.count) scalars")
        #expect(long.hasSuffix("… (100001 bytes)"), "\(Self.shown([String(long.unicodeScalars.suffix(40))]))")
    }

    /// Runs `bcstream replay` on a pseudo-terminal, so that its prompt is on, in DIRECTORY (whose Tests/Payloads
    /// is the prompt's catalogue); sends `SUB` with HOSTILE (refused: not a channel key), subscribes with KEY (Python
    /// `websockets`), types `who`, then `1-comment` (the one fixture), then Ctrl-D; prints everything the terminal
    /// received as one JSON string.
    static let promptDriver = #"""
        import asyncio, json, os, pty, re, select, sys, time
        from websockets.asyncio.client import connect

        bcstream, directory, hostile, key = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(directory)
            os.environ["TERM"] = "xterm"  # a terminal that moves its cursor: the prompt is libedit's line editor
            os.execv(bcstream, [bcstream, "replay"])
        output = b""

        def read_more(timeout):
            """Appends what the terminal has within `timeout` seconds; False at its end."""
            global output
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return True
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                return False
            output += chunk
            return bool(chunk)

        def read_until(pattern, timeout=10):
            end = time.time() + timeout
            while not re.search(pattern, output):
                if time.time() > end or not read_more(max(0, end - time.time())):
                    sys.stderr.write(f"no {pattern!r} in {output!r}\n")
                    sys.exit(1)

        async def session():
            read_until(rb"ws://[0-9.]+:[0-9]+/")
            url = re.search(rb"ws://[0-9.]+:[0-9]+/", output).group().decode()
            read_until(rb"replay> ")
            async with connect(url) as ws:
                await ws.send("SUB\t" + hostile)
                read_until(rb"sent SUB with")
                await ws.send("SUB\t" + key)
                read_until(rb"subscribed to")
                os.write(fd, b"who\r")
                read_until(rb"subscriber\(s\)")
                os.write(fd, b"1-comment\r")
                read_until(rb"pushed [^\n]*\n")
                os.write(fd, b"\x04")
                end = time.time() + 10
                while time.time() < end and read_more(1):
                    pass

        asyncio.run(asyncio.wait_for(session(), timeout=30))
        os.waitpid(pid, 0)
        print(json.dumps(output.decode("utf-8", "replace")))
        """#

    /// The prompt's lines on a terminal: `who` lists a client's key, and the echo of a push names a fixture
    /// read from disk; both escaped. Only the line editor's own sequences (carriage returns, and CSI sequences that
    /// move the cursor or erase) drive the terminal; what a person then sees is checked by ReplayPromptTerminalTests.
    @Test func replayPromptShowsKeysAndFixtureNamesEscaped() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payloads = directory.appendingPathComponent("Tests/Payloads")
        try FileManager.default.createDirectory(at: payloads, withIntermediateDirectories: true)
        try Data(#"{"t":1,"u":"1","ac":"a","cm":"b","lci":"1"}"#.utf8)
            .write(to: payloads.appendingPathComponent("1-comment-\u{1B}]0;owned\u{7}\u{202E}.json"))
        let script = directory.appendingPathComponent("prompt_driver.py")
        try Data(Self.promptDriver.utf8).write(to: script)

        // A key with controls is no channel key (ChannelKey): the server refuses it and its log line shows it
        // escaped; a key of other scripts is one, listed by `who` as it is.
        let hostile = "k\u{1B}]0;pwned\u{7}\u{9B}2J\u{202E}"
        let key = "k:鍵ﾃｽﾄ"
        let driver = try BCStreamProcess.runPython([script.path, BCStreamProcess.executable.path, directory.path,
                                                    hostile, key])
        #expect(driver.status == 0, "\(Self.shown(driver.stderr.split(separator: "\n").map(String.init)))")
        let received = try JSONDecoder().decode(String.self, from: Data(driver.stdout.utf8))

        // The terminal's own line ends (ONLCR), a prompt drawn then erased to print a line in its place, and the
        // editor's carriage returns and CSI sequences are the only controls expected. The hostile texts hold OSC,
        // BEL, C1 CSI and bidi controls, none of which this removes: printed raw, they would remain.
        let text = received.replacing("\r\n", with: "\n").replacing("replay> \r\u{1B}[J", with: "")
            .replacing(#/\r|\x{1B}\[[0-9;?]*[A-Za-z]/#, with: "")
        let lines = Self.safeLines(of: text + "\n", "the terminal")
        // The refusal's line (the prompt folds it at the terminal's width; `safeLines` checked every line).
        #expect(lines.contains { $0.contains(#"sent SUB with a key with U+001B in it"#) }, "\(Self.shown(lines))")
        #expect(lines.contains { $0.hasSuffix("k:鍵ﾃｽﾄ: 1 subscriber(s)") }, "\(Self.shown(lines))")
        #expect(lines.contains { $0.hasPrefix(#"pushed 1-comment-\u{1B}]0;owned\u{7}\u{202E} to 1 subscriber"#) },
                "\(Self.shown(lines))")
        #expect(lines.contains { $0.hasSuffix("subscribed to k:鍵ﾃｽﾄ") }, "\(Self.shown(lines))")
        #expect(!lines.contains { $0.contains("subscribed to k\\u{1B}") }, "the hostile key was not subscribed")
    }
}
