import ArgumentParser
import BCListener
import BCMessages
import BCWebSocket
import Foundation

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Subscribe to live streams over bcsvr and print every message as it arrives, typed.",
        discussion: """
            Connects to the bcsvr WebSocket endpoint, sends SUB for each --key, answers the keepalive \
            (PING every --ping-interval seconds; no ACK before the next one means a dead link) and \
            reconnects with exponential back-off after drops, timeouts and 5xx answers. It stops when \
            every live has ended (t=8 or t=123), after --count messages or --duration seconds, or with a \
            clear message on 401/403/404 or after --max-attempts failed attempts in a row.

            Messages go to stdout (one line each, as `bcstream decode` prints them; ndjson adds the key). \
            The connection state and counts go to stderr. A frame that does not decode is printed with \
            its error and raw text, and the session goes on.

            The endpoint and key come from the live-info API: wss://<broadcast_host>/ and bcsvr_key.

            Limits (the server is not trusted): a message over 1 MiB is refused, recorded (its first \
            64 KiB), closed with 1009 and the link reconnects; text that is not UTF-8 closes with 1007. \
            At most 1,024 messages (4 MiB) wait for a slow stdout; then reading stops and TCP holds the \
            server back. Names and comments are printed with control characters escaped.

            Examples:
              bcstream listen wss://online.example.com/ --key 118f91f:UdoBre1M
              bcstream listen ws://127.0.0.1:8080/ --key a:1 --key b:2 \\
                  --format ndjson --record session.ndjson
              bcstream listen wss://online.example.com/ --key 118f91f:UdoBre1M \\
                  --count 100 --duration 60
            """
    )

    @Argument(help: "The bcsvr WebSocket endpoint, ws:// or wss:// (e.g. wss://online.example.com/).")
    var url: String

    @Option(name: .customLong("key"), help: "A channel key to subscribe to (bcsvr_key, like 118f91f:UdoBre1M). Repeat for several lives.")
    var keys: [String] = []

    @Option(help: "Output format: text (one readable line per message) or ndjson ({\"t\":…,\"kind\":…,\"key\":…,\"message\":{…}}).")
    var format: MessageFormatter.Format = .text

    @Option(help: "Stop after this many messages (all channels together).")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Seconds between bcsvr PINGs; a link with no ACK by the next PING is dead.")
    var pingInterval: Double = 30

    @Option(help: "Seconds a connection attempt (DNS, TCP, TLS and upgrade) may take.")
    var connectTimeout: Double = 10

    @Option(help: "Give up after this many failed attempts in a row (default: never).")
    var maxAttempts: Int?

    @Option(help: "Append every received frame to this NDJSON file before decoding (replay it with `bcstream replay FILE`).")
    var record: String?

    @Option(help: "Trust this PEM CA certificate for wss:// (for a private CA).")
    var caFile: String?

    @Flag(help: "Do not verify the server's certificate. Only for test servers.")
    var insecure = false

    @Flag(help: "Do not offer permessage-deflate compression.")
    var noCompression = false

    @Flag(help: "Strict decoding: report unknown kinds and keys the model does not know.")
    var strict = false

    @Option(help: "Also publish every message to NATS JetStream (stream BCSTREAM, subjects bcstream.msg.<channel>.<kind>), e.g. nats://127.0.0.1:4222.")
    var publish: String?

    @Option(help: "Messages that may wait for NATS while it is unreachable; when full, reading the lives pauses (nothing is dropped).")
    var publishBuffer = PublishBuffer.defaultCapacity

    func validate() throws {
        if keys.isEmpty { throw ValidationError("Pass at least one --key (the live's bcsvr_key, like 118f91f:UdoBre1M).") }
        guard let parsed = URL(string: url), ["ws", "wss"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw ValidationError(TerminalText.escaped("\(url) is not a ws:// or wss:// URL (e.g. wss://online.example.com/)."))
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive.") }
        if pingInterval <= 0 { throw ValidationError("--ping-interval must be positive.") }
        if connectTimeout <= 0 { throw ValidationError("--connect-timeout must be positive.") }
        if let maxAttempts, maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1.") }
        try NATSServers.validate(publish, option: "--publish", buffer: publishBuffer)
    }

    func run() async throws {
        guard let endpoint = URL(string: url) else { throw ValidationError(TerminalText.escaped("\(url) is not a URL.")) }
        let recorder = try record.map { try FrameRecorder(path: $0) }
        var webSocket = WebSocketClientConfiguration()
        webSocket.tls = .init(caFile: caFile, insecure: insecure)
        webSocket.permessageDeflate = !noCompression
        // A loop of its own, shut down before the process exits: without that the process can end before the
        // loop's thread has sent the close frames (`the live ended`, or `cancelled` after --count/--duration), and
        // the server sees the connections drop.
        let loop = WebSocketLoop(name: "bcstream.listen")
        let listeners = keys.map { key in
            var configuration = BCListenerConfiguration(key: key, url: endpoint)
            configuration.pingInterval = .seconds(pingInterval)
            configuration.connectTimeout = .seconds(connectTimeout)
            configuration.maxAttempts = maxAttempts
            configuration.decodingMode = strict ? .strict : .lenient
            return ChannelListener(configuration: configuration, webSocket: webSocket, recorder: recorder, loop: loop)
        }
        let publisher = try await NATSServers.startPublisher(publish, capacity: publishBuffer)
        let session = ListenSession(listeners: listeners, format: format, count: count,
                                    duration: duration.map { .milliseconds(Int64($0 * 1000)) }, publisher: publisher)
        let outcome = try await cancellingOnInterrupt { await session.run() }
        // Closes what is still open (1001, going away, if the session's own close has not gone out yet) and waits
        // for the close handshakes, at most about a second.
        await loop.shutdown()
        let unpublished = await NATSServers.finish(publisher)
        if outcome.failed || unpublished > 0 { throw ExitCode(1) }
    }
}
