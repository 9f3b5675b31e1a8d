import ArgumentParser
import BCWebSocket
import Logging

// The options every command that connects takes, declared once (`@OptionGroup`), so that they read and check the
// same everywhere.

/// `--ca-file` and `--insecure`: how a wss:// (and an https:// API) server's certificate is checked.
struct TLSOptions: ParsableArguments {
    @Option(help: "Trust this PEM CA certificate for https:// and wss:// servers (a private CA).")
    var caFile: String?

    @Flag(help: "Do not verify the server's certificate. Only for test servers.")
    var insecure = false

    var configuration: WebSocketClientConfiguration.TLS { .init(caFile: caFile, insecure: insecure) }
}

/// `--ping-interval` and `--connect-timeout`: the bcsvr keepalive and how long one connection attempt may take.
struct KeepaliveOptions: ParsableArguments {
    @Option(help: "Seconds between bcsvr PINGs; a link with no ACK by the next PING is dead.")
    var pingInterval: Double = 30

    @Option(help: "Seconds a connection attempt (DNS, TCP, TLS and upgrade) may take.")
    var connectTimeout: Double = 10

    func validate() throws {
        if pingInterval <= 0 { throw ValidationError("--ping-interval must be positive.") }
        if connectTimeout <= 0 { throw ValidationError("--connect-timeout must be positive.") }
    }

    var ping: Duration { .seconds(pingInterval) }
    var connect: Duration { .seconds(connectTimeout) }
}

/// `--nats`: the NATS servers of the fleet's commands (`worker`, `follow`).
struct NATSOptions: ParsableArguments {
    @Option(help: "NATS servers: nats://HOST:PORT, several separated by commas.")
    var nats: String

    func validate() throws {
        try NATSServers.validate(nats, option: "--nats")
    }
}

/// `--log-level`: how much the fleet's log (worker, `listen --publish`) says on stderr.
struct LoggingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Log lines at this level and above go to stderr.", valueName: "level"))
    var logLevel: Logger.Level = .info

    /// The fleet's logger, writing to stderr at `--log-level` and above.
    var logger: Logger {
        let level = logLevel
        return Logger(label: "bcstream.fleet") { _ in StderrLogHandler(level: level) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
