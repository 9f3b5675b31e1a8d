import ArgumentParser
import BCConsole
import BCFleet
import BCListener
import BCMessages
import BCWebSocket
import Foundation

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Follow a live from its page, its id or its streamer's page, and print every message, typed.",
        usage: """
            bcstream listen <live URL | live id | user URL> [<options>]
              bcstream listen <ws(s)://bcsvr endpoint> --key <key> ... [<options>]
            """,
        discussion: """
            LIVE is a live page (https://www.mirrativ.com/live/<live_id>), a bare live id or a \
            streamer's page (https://www.mirrativ.com/user/<user_id>). The live-info API \
            (<api-base>/api/live/live?live_id=) gives the bcsvr endpoint wss://<broadcast_host>/ and the \
            key; a user page asks the profile API (/api/user/profile?user_id=) which live is on. Those \
            APIs may want a logged-in browser's mr_id cookie: --cookie mr_id=VALUE, or the environment \
            variable BCSTREAM_COOKIE (never printed). --ca-file and --insecure serve both the API and \
            wss://. An API answer over 1 MiB is refused.

            With a user page, --wait polls the profile every --poll-interval seconds (±20%, twice as \
            long after each failure up to 15 min; a line on stderr says when) until the streamer goes \
            live, then follows that live to its end; --follow-next then waits for the next live, for \
            ever. --backlog prints the live's recent comments first, oldest first, marked [backlog] \
            ("backlog":true in NDJSON), and drops live comments already shown (same lci).

            Connects, sends SUB for each key, answers the keepalive (PING every --ping-interval \
            seconds; no ACK before the next one means a dead link) and reconnects with back-off after \
            drops, timeouts and 5xx answers. It stops when every live has ended (t=8 or t=123), after \
            --count messages or --duration seconds, or on 401/403/404 or --max-attempts failures.

            Messages go to stdout (one line each, as `bcstream decode` prints them; ndjson adds the key). \
            The connection state and counts go to stderr. A frame that does not decode is printed with \
            its error and raw text, and the session goes on.

            Limits (the server is not trusted): a message over 1 MiB is refused, recorded (its first \
            64 KiB), closed with 1009 and the link reconnects; text that is not UTF-8 closes with 1007. \
            At most 1,024 messages (4 MiB) wait for a slow stdout; then reading stops and TCP holds the \
            server back. Names and comments are printed with control characters escaped.

            Many lives: --keys-file takes one key a line (up to 100,000; a key with a TAB, space or \
            line break is refused). Each channel is read and decoded by its own task, on every core; \
            connections are spread over loops of 500. A channel holds about 17 KiB, or about 55 KiB \
            with compression (zlib's state and 32 KiB window, filled by the first 32 KiB of text): use \
            --no-compression for thousands of lives.

            Exit status: 0 the live ended (or --count, --duration); 1 the bcsvr connection failed; \
            2 nothing to follow (live ended or private, user offline without --wait); 3 the API \
            refused (HTTP 401/403: pass the cookie; 404: check the URL; 429: wait); 4 the API's \
            answer is unusable (not JSON, keys missing, over 1 MiB); 5 the API could not be reached \
            (timeout, TLS, refused); 64 wrong usage.

            Examples:
              bcstream listen https://www.mirrativ.com/live/Xq3Zk-8s_Ab4Cd5Ef6Gh7J --backlog
              BCSTREAM_COOKIE=mr_id=... bcstream listen \\
                  https://www.mirrativ.com/user/9001234 --wait --follow-next
              bcstream listen wss://online.example.com/ --key 118f91f:UdoBre1M
              bcstream listen ws://127.0.0.1:8080/ --key a:1 --key b:2 \\
                  --format ndjson --record session.ndjson
              bcstream listen wss://online.example.com/ --keys-file lives.txt \\
                  --format ndjson --no-compression     # thousands of lives
            """
    )

    @Argument(help: "A live page URL, a live id, a user page URL, or a bcsvr ws:// or wss:// endpoint (with --key).")
    var url: String

    @Option(name: .customLong("key"), help: "With a ws(s):// endpoint: a channel key to subscribe to (bcsvr_key, like 118f91f:UdoBre1M). Repeat for several lives.")
    var keys: [String] = []

    @Option(help: ArgumentHelp(
        "With a ws(s):// endpoint: a file of channel keys, one a line (# comments; - for stdin).",
        valueName: "file"))
    var keysFile: String?

    @Option(help: "The API that resolves pages to lives.")
    var apiBase = LiveDirectory.defaultAPIBase.absoluteString

    @Option(name: .customLong("cookie"), help: "A cookie for the API, NAME=VALUE (mr_id=...). Repeatable; see BCSTREAM_COOKIE.")
    var cookies: [String] = []

    @Option(help: "Seconds an API request may take.")
    var apiTimeout: Double = 10

    @Flag(help: "With a user page: wait until the streamer goes live.")
    var wait = false

    @Flag(help: "With --wait: after the live ends, wait for the next one, for ever.")
    var followNext = false

    @Option(help: "With --wait: seconds between two looks at the profile.")
    var pollInterval: Double = 60

    @Flag(help: "Print the live's recent comments first (the API's backlog).")
    var backlog = false

    @Option(help: "Output format: text (one readable line per message) or ndjson (one JSON object a line: t, kind, key, backlog, message).")
    var format: MessageFormatter.Format = .text

    @Option(help: "Stop after this many messages (all channels together).")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @OptionGroup var keepalive: KeepaliveOptions

    @Option(help: "Give up after this many failed attempts in a row (default: never).")
    var maxAttempts: Int?

    @Option(help: "Append every received frame to this NDJSON file before decoding (replay it with `bcstream replay FILE`).")
    var record: String?

    @OptionGroup var tls: TLSOptions

    @Flag(help: "Do not offer permessage-deflate compression.")
    var noCompression = false

    @Flag(help: "Strict decoding: report unknown kinds and keys the model does not know.")
    var strict = false

    @Flag(help: "At the end, print on stderr what `bcstream audit` reports of the messages.")
    var audit = false

    @Option(help: "Also publish every message to NATS JetStream (stream BCSTREAM, subjects bcstream.msg.<channel>.<kind>), e.g. nats://127.0.0.1:4222.")
    var publish: String?

    @Option(help: "Messages that may wait for NATS while it is unreachable; when full, reading the lives pauses (nothing is dropped).")
    var publishBuffer = PublishBuffer.defaultCapacity

    @OptionGroup var logging: LoggingOptions

    /// What the argument names: a bcsvr endpoint (with --key), or a live or user to resolve through the API.
    private enum Target {
        case endpoint(URL)
        case reference(LiveReference)
    }

    private var target: Target? {
        if let parsed = URL(string: url), ["ws", "wss"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil {
            return .endpoint(parsed)
        }
        return LiveReference(url).map(Target.reference)
    }

    func validate() throws {
        switch target {
        case .endpoint:
            if keys.isEmpty && keysFile == nil {
                throw ValidationError("Pass at least one --key (the live's bcsvr_key, like 118f91f:UdoBre1M) or --keys-file.")
            }
            if wait || followNext { throw ValidationError("--wait and --follow-next need a user page URL, not an endpoint.") }
            if backlog { throw ValidationError("--backlog needs a live or user page URL (the API knows the live id).") }
        case .reference(let reference):
            if !keys.isEmpty || keysFile != nil {
                throw ValidationError("--key goes with a ws:// or wss:// endpoint, as --keys-file does; a page URL gives the key.")
            }
            if case .live = reference, wait || followNext {
                throw ValidationError("--wait and --follow-next need a user page URL (https://www.mirrativ.com/user/<id>).")
            }
        case nil:
            throw ValidationError(TerminalText.escaped(
                "\(url) is not a live page (https://www.mirrativ.com/live/<id>), a live id, a user page "
                    + "(https://www.mirrativ.com/user/<id>) or a ws:// or wss:// endpoint."))
        }
        if followNext && !wait { throw ValidationError("--follow-next goes with --wait.") }
        try NATSServers.validate(publish, option: "--publish", buffer: publishBuffer)
        guard let base = URL(string: apiBase), ["http", "https"].contains(base.scheme?.lowercased() ?? ""),
              base.host != nil else {
            throw ValidationError(TerminalText.escaped("--api-base \(apiBase) is not an http:// or https:// URL."))
        }
        // Checked without quoting them: a cookie is a secret. The variable only matters when the API is asked.
        var environment: [String] = []
        if case .reference = target, let variable = ProcessInfo.processInfo.environment[Self.cookieVariable] {
            environment = [variable]
        }
        for cookie in cookies + environment where !Self.isHeaderSafe(cookie) {
            throw ValidationError("A cookie (--cookie or \(Self.cookieVariable)) holds a control character or is over 4 KiB; it was not sent.")
        }
        if apiTimeout <= 0 { throw ValidationError("--api-timeout must be positive.") }
        if pollInterval < 1 { throw ValidationError("--poll-interval must be at least 1 second.") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive.") }
        if let maxAttempts, maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1.") }
    }

    /// The environment variable that may carry the API's cookie (`mr_id=VALUE`).
    static let cookieVariable = "BCSTREAM_COOKIE"

    static func isHeaderSafe(_ text: String) -> Bool {
        text.utf8.count <= 4096 && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    func run() async throws {
        // A loop of its own, shut down before the process exits: without that the process can end before the
        // loop's thread has sent the close frames (`the live ended`, or `cancelled` after --count/--duration), and
        // the server sees the connections drop.
        let loop = WebSocketLoop(name: "bcstream.listen")
        let recorder = try record.map { try FrameRecorder(path: $0) }
        let publisher = try await NATSServers.startPublisher(publish, capacity: publishBuffer, logger: logging.logger)
        let failed: Bool
        switch target {
        case .endpoint(let endpoint):
            let keys: [ChannelKey]
            do {
                keys = try ChannelKeys.collect(keys: self.keys, file: keysFile)
                // Each channel holds a socket; the rest is files, the recording and lws' own.
                try DescriptorLimit.ensure(keys.count + 64)
            } catch {
                throw ValidationError(error.description)
            }
            if keys.isEmpty { throw ValidationError("\(keysFile ?? "the keys file") holds no key.") }
            failed = try await cancellingOnInterrupt { [self] in
                await follow(endpoint: endpoint, keys: keys, recorder: recorder, loop: loop, backlog: nil,
                             publisher: publisher)
            }
        case .reference(let reference):
            let directory = makeDirectory()
            let exit: Int32 = try await cancellingOnInterrupt { [self] in
                if wait, case .user(let userID) = reference {
                    let watch = StreamerWatch(directory: directory, userID: userID, followNext: followNext,
                                              schedule: PollSchedule(interval: .milliseconds(Int64(pollInterval * 1000))))
                    return await watch.run { info in
                        await follow(info, directory: directory, recorder: recorder, loop: loop, publisher: publisher)
                    }
                }
                do throws(LiveDirectoryError) {
                    let info = try await directory.resolve(reference)
                    return await follow(info, directory: directory, recorder: recorder, loop: loop,
                                        publisher: publisher) ? 1 : 0
                } catch {
                    // Ctrl-C while the API was asked: nothing went wrong.
                    if case .transport(_, .cancelled) = error { return 0 }
                    StatusLine().note(error.description)
                    return ListenExitStatus.of(error)
                }
            }
            failed = exit != 0
            if exit > 1 {
                await loop.shutdown()
                _ = await NATSServers.finish(publisher, logger: logging.logger)
                throw ExitCode(exit)
            }
        case nil:
            throw ValidationError(TerminalText.escaped("\(url) is not a URL."))
        }
        // Closes what is still open (1001, going away, if the session's own close has not gone out yet) and waits
        // for the close handshakes, at most about a second.
        await loop.shutdown()
        // What still waits for NATS gets a last chance; what never got there is counted on stderr.
        let unpublished = await NATSServers.finish(publisher, logger: logging.logger)
        if failed || unpublished > 0 { throw ExitCode(1) }
    }

    private func makeDirectory() -> LiveDirectory {
        let environment = ProcessInfo.processInfo.environment[Self.cookieVariable].map { [$0] } ?? []
        let cookie = (cookies + environment).filter { !$0.isEmpty }.joined(separator: "; ")
        return LiveDirectory(apiBase: URL(string: apiBase) ?? LiveDirectory.defaultAPIBase,
                             cookie: cookie.isEmpty ? nil : cookie,
                             tls: tls.configuration,
                             timeout: .milliseconds(Int64(apiTimeout * 1000)))
    }

    /// Follows one resolved live to its end; true when the connection failed.
    private func follow(_ info: LiveInfo, directory: LiveDirectory, recorder: FrameRecorder?,
                        loop: WebSocketLoop, publisher: LivePublisher?) async -> Bool {
        guard let endpoint = info.endpoint else {
            StatusLine().note("live \(info.liveID): broadcast_host \(info.broadcastHost) makes no URL")
            return true
        }
        let title = info.title.map { " \"\($0)\"" } ?? ""
        let owner = info.ownerName.map { " by \($0)" } ?? ""
        StatusLine().note("live \(info.liveID)\(title)\(owner): \(endpoint.absoluteString)")
        let liveID = info.liveID
        var source: ListenSession.BacklogSource?
        if backlog {
            source = { @Sendable (_: String) async -> Result<BacklogComments, LiveDirectoryError> in
                do throws(LiveDirectoryError) {
                    return .success(try await directory.backlog(liveID: liveID))
                } catch {
                    return .failure(error)
                }
            }
        }
        return await follow(endpoint: endpoint, keys: [info.key], recorder: recorder, loop: loop, backlog: source,
                            publisher: publisher)
    }

    /// Listens to `keys` on `endpoint` until the lives end (or --count, --duration); true when it failed.
    /// `loop` carries the first 500 channels; more get loops of their own (`WebSocketLoopPool`), so start-up stays
    /// linear in the channels, and those are shut down here.
    private func follow(endpoint: URL, keys: [ChannelKey], recorder: FrameRecorder?, loop: WebSocketLoop,
                        backlog: ListenSession.BacklogSource?, publisher: LivePublisher?) async -> Bool {
        var webSocket = WebSocketClientConfiguration()
        webSocket.tls = tls.configuration
        webSocket.permessageDeflate = !noCompression
        let loops = await WebSocketLoopPool.started(connections: keys.count, name: "bcstream.listen", first: loop)
        let listeners = keys.enumerated().map { index, key in
            let loop = loops.loop(for: index)
            var configuration = BCListenerConfiguration(key: key, url: endpoint)
            configuration.pingInterval = keepalive.ping
            configuration.connectTimeout = keepalive.connect
            configuration.maxAttempts = maxAttempts
            configuration.decodingMode = strict ? .strict : .lenient
            return ChannelListener(configuration: configuration, webSocket: webSocket, recorder: recorder, loop: loop)
        }
        let liveAudit = audit ? LiveAudit() : nil
        var session = ListenSession(listeners: listeners, format: format, count: count,
                                    duration: duration.map { .milliseconds(Int64($0 * 1000)) })
        session.backlog = backlog
        if let publisher {
            // Every message and decode error of channel `channel` is published as its frame number `frame`; a full
            // buffer holds the channel's reader back, and so the channel's socket.
            let maker = FleetMessageMaker()
            session.forwarder = { channel, key in
                var frame = 0
                return { event in
                    guard let message = maker.message(for: event, key: key, follow: channel, frame: frame) else { return }
                    frame += 1
                    await publisher.append(message)
                }
            }
        }
        if let liveAudit { session.onEvent = { event, key in liveAudit.observe(event, key: key) } }
        let failed = await session.run().failed
        liveAudit?.printReport()
        await loops.shutdown()
        return failed
    }
}
