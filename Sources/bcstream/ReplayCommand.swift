import ArgumentParser
import BCConsole
import BCLineEditor
import BCMessages
import BCReplay
import BCWebSocket
import Foundation

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Serve fixtures and recordings over bcsvr on loopback, as a live stream would send them.",
        usage: "bcstream replay [<options>] [<sources> ...]",
        discussion: """
            Starts a bcsvr WebSocket server and prints its URL (ws://127.0.0.1:PORT/, or wss:// with \
            --tls-cert and --tls-key) as the first line of stdout. A client that sends SUB<TAB><any key> receives MSG<TAB><key><TAB><json> lines, \
            byte for byte as stored; PING gets ACK. Each key plays the sources from its first \
            subscription; a client that drops and subscribes again resumes after the last message \
            queued for it (what was still queued when it dropped is not sent again); with --broadcast \
            the key plays on meanwhile, as a live does, and what nobody heard is lost.

            SOURCE is a fixture file, a folder of fixtures, a recording made by \
            `bcstream listen --record` (.ndjson), or a fixture name, a t (35) or a \
            kind (gift). A path is taken from the current directory first; a \
            SOURCE that is no file or folder there names fixtures of Tests/Payloads \
            (in the current directory, or else in the checkout bcstream was built \
            from). Default: every fixture of Tests/Payloads, in order of t.

            The fixtures that end the live (t=8 live ended, t=123 stream ended) play \
            after all the others, so `bcstream listen`, which stops at the end of the \
            live, receives every other fixture first; --keep-order plays them where \
            they fall. Fixtures are spaced by --interval; a recording keeps its \
            recorded pace and order, scaled by --speed.

            On a terminal, a prompt lets you push any fixture at any time: type a fixture name, a t or \
            a kind, Tab completes; `who` lists subscribers; Ctrl-D or `quit` ends. Its line editor is \
            libedit's: Up and Down recall earlier lines, Ctrl-A/Ctrl-E/Left/Right move, Ctrl-U clears the \
            line, Ctrl-W the word before the cursor. The activity log is printed above the prompt, never \
            into the line being typed. Without a terminal the server stops once every channel has \
            played everything (a channel all its subscribers left ends when it is forgotten, below).

            Limits (clients are not trusted): a subscriber more than 256 KiB behind holds its \
            channel's playback; one that stays behind for 10 s, or has 8 MiB queued, is closed (1008). \
            A connection may subscribe to 16 keys and the server keeps --max-channels channels (10,000); \
            past either the client gets ERR and a close. Each connection is an open file: replay raises its \
            limit to the hard one (`ulimit -Hn`), which bounds the subscribers one process can serve. A channel nobody returns to is forgotten after 60 s; a \
            connection that does not finish its upgrade within 10 s is dropped and logged.

            Examples:
              bcstream replay                          # every fixture, one a second
              bcstream replay gift 116 --interval 0.2 --port 8080
              bcstream replay ./session.ndjson --speed 4 --loop
              bcstream replay Tests/Payloads --drop-after 5  # test a reconnect
              bcstream replay --tls-cert server.pem --tls-key server.key
            """
    )

    @Argument(help: "Fixture files or folders, fixture names, t numbers, kind names, or recordings (.ndjson).")
    var sources: [String] = []

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (printed on the first line).")
    var port = 0

    @Option(help: "Seconds between two fixtures.")
    var interval: Double = 1

    @Option(help: "Recordings: pace multiplier (2 = twice as fast) or max (as fast as the client takes it).")
    var speed = "1"

    @Flag(help: "Play the fixtures that end the live (t=8, t=123) where they fall, not last.")
    var keepOrder = false

    @Flag(help: "Play the sources again and again.")
    var loop = false

    @Flag(help: "Keep serving after everything was played (the default on a terminal).")
    var keepOpen = false

    @Option(help: "Fault: close each subscriber's connection after this many messages.")
    var dropAfter: Int?

    @Option(help: "Fault: the close code of --drop-after (1001 going away, 1011 server error; some clients read 1012 and 1013 as protocol errors).")
    var closeCode: UInt16 = 1001

    @Option(help: "Fault: stop answering a subscriber (no ACK, no pong) after this many messages.")
    var stallAfter: Int?

    @Option(help: "Fault: send one message of this many bytes before each channel's first message.")
    var oversized: Int?

    @Option(help: "Fault: split every message into this many WebSocket fragments.")
    var fragments = 1

    @Flag(help: "Play each key on while nobody subscribes to it, as a live does: a client that comes back has missed what was sent meanwhile.")
    var broadcast = false

    @Option(help: ArgumentHelp(
        "Channels (distinct keys) kept at once; a SUB that would open one more gets ERR and a close.",
        discussion: "A guard against a flood of keys, each of which costs the server a playback and its memory: "
            + "raise it to serve more lives at once (19,000 fit in one process under a 20,000 open-file limit)."))
    var maxChannels = ReplayLimits().maxChannels

    @Option(help: "Serve wss:// with this PEM certificate (with --tls-key).")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together.") }
        if interval < 0 { throw ValidationError("--interval cannot be negative.") }
        if ReplaySpeed(speed) == nil { throw ValidationError("--speed takes a positive number (2, 0.5) or max, not \(speed).") }
        if fragments < 1 { throw ValidationError("--fragments must be at least 1.") }
        if let dropAfter, dropAfter < 1 { throw ValidationError("--drop-after must be at least 1.") }
        if let stallAfter, stallAfter < 1 { throw ValidationError("--stall-after must be at least 1.") }
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if maxChannels < 1 { throw ValidationError("--max-channels must be at least 1.") }
    }

    func run() async throws {
        let loader = FixtureFolder.loader()
        let playlist: ReplayPlaylist
        do {
            playlist = try loader.load(arguments: sources, liveEndsLast: !keepOrder)
        } catch {
            throw CommandFailure(error.description)
        }
        for problem in playlist.problems { ActivityLog(console: nil)("skipped \(problem)") }
        guard !playlist.items.isEmpty else { throw CommandFailure("nothing to play: the sources hold no message") }

        let options = ReplaySchedule.Options(interval: .milliseconds(Int64(interval * 1000)),
                                             speed: ReplaySpeed(speed) ?? .recorded, loop: loop)
        let faults = ReplayFaults(dropAfter: dropAfter, dropCode: closeCode, stallAfter: stallAfter,
                                  oversizedBytes: oversized, fragments: fragments, broadcast: broadcast)
        // A subscriber is an open file: as many as the hard limit allows (the soft one is often 1,024).
        DescriptorLimit.raise(toward: Int.max)
        var limits = ReplayLimits()
        limits.maxChannels = maxChannels
        let server: ReplayServer
        do {
            server = try await ReplayServer(host: host, port: port,
                                            schedule: ReplaySchedule(items: playlist.items, options: options),
                                            faults: faults, limits: limits,
                                            tls: tlsCert.flatMap { cert in
                                                tlsKey.map { .init(certificateFile: cert, privateKeyFile: $0) }
                                            })
        } catch {
            throw CommandFailure(tlsCert == nil ? "\(error); pick another --port, or 0 for any free one"
                                                : "\(error); check --tls-cert and --tls-key, or pick another --port")
        }
        let scheme = tlsCert == nil ? "ws" : "wss"
        writeLine("\(scheme)://\(server.host):\(server.port)/")

        // On a terminal, with the fixture folder at hand, the prompt: from here on every line for the person goes
        // through its console, which keeps them above the line being typed.
        let completion = isatty(STDIN_FILENO) == 1 ? (try? loader.defaultCatalog()).map(PromptCompletion.init) : nil
        let console = completion.flatMap { makePromptConsole(prompt: "replay> ", completion: $0) }
        let log = ActivityLog(console: console)
        log("serving \(playlist.items.count) message\(playlist.items.count == 1 ? "" : "s") on \(scheme)://\(server.host):\(server.port)/ — subscribe with SUB<TAB><any key>")
        if isatty(STDIN_FILENO) == 1, completion == nil {
            log("no fixture folder here (Tests/Payloads), so the prompt cannot push; Ctrl-C stops the server")
        }

        let activityLog = Task {
            for await activity in server.activity { log(activity.description) }
        }
        let serveForever = keepOpen || loop || isatty(STDIN_FILENO) == 1
        // Ctrl-C stops serving; the server then closes its clients with a close frame.
        _ = try? await cancellingOnInterrupt {
            if let completion, let console {
                await ReplayPrompt(completion: completion, server: server, console: console).run()
            } else if serveForever {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            } else {
                await withTaskCancellationHandler {
                    while !Task.isCancelled {
                        await server.waitUntilEveryChannelFinished()
                        // Let the last frames reach the clients before the connections close; a channel subscribed
                        // meanwhile is played whole too.
                        try? await Task.sleep(for: .milliseconds(500))
                        if await server.playedOut { break }
                    }
                } onCancel: {
                    Task { await server.stop() }
                }
            }
        }
        // The terminal is given back before the goodbyes to clients are logged.
        await console?.stop()
        await server.stop()
        activityLog.cancel()
    }

    /// A line of the activity log on stderr, or above the prompt while it runs. It quotes what clients sent (keys,
    /// unknown commands) and names read from disk, so it goes through `reportLine`.
    private struct ActivityLog: Sendable {
        let console: (any PromptConsole)?

        func callAsFunction(_ text: String) {
            let line = "replay: \(reportLine(text))"
            // On a terminal a line longer than it is broken between words, the rows after the first indented under
            // the text (a pipe or a file gets the line whole).
            let rows = TerminalColumns.width(of: STDERR_FILENO).map {
                TerminalColumns.wrapped(line, width: max(10, $0 - 1), indent: "replay: ".count)
            } ?? [line]
            for row in rows {
                if let console {
                    console.say(row)
                } else {
                    FileHandle.standardError.write(Data((row + "\n").utf8))
                }
            }
        }
    }
}

