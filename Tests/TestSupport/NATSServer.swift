import Foundation
import Synchronization

/// A real `nats-server -js` (Debian's nats-server 2.9) on a free loopback port, with its JetStream store in a
/// temporary folder of its own. `stop()` ends it and `start()` starts it again on the same port and store, for a
/// restart mid-stream; `remove()` stops it and deletes the store. `withNATSServer` does it all on every path.
public final class NATSServer: Sendable {
    public let port: Int
    public let storeDirectory: String
    /// Cluster settings: this node's name, route port, and the route URLs of the other nodes.
    let cluster: Cluster?
    private let current = ProcessBox()

    struct Cluster: Sendable {
        let name: String
        let routePort: Int
        let routes: [String]
    }

    /// The `nats://127.0.0.1:PORT` URL clients connect to.
    public var url: String { "nats://127.0.0.1:\(port)" }

    init(port: Int, cluster: Cluster? = nil) {
        self.port = port
        self.cluster = cluster
        storeDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bcstream-nats-\(UUID().uuidString)").path
    }

    /// Starts a single server on a free port and waits until it accepts clients.
    public static func start() async throws -> NATSServer {
        let server = NATSServer(port: try unusedLoopbackPort())
        try await server.start()
        return server
    }

    /// A server on a free port, not started yet (`start()` starts it).
    public static func unstarted() -> NATSServer {
        NATSServer(port: (try? unusedLoopbackPort()) ?? 4222)
    }

    /// Starts the server (again) and returns once it logs that it is ready: no sleep, the log line is the event.
    public func start() async throws {
        var arguments = ["-js", "-a", "127.0.0.1", "-p", "\(port)", "-sd", storeDirectory]
        if let cluster {
            arguments += ["-n", cluster.name, "--cluster_name", "bcstream-test",
                          "--cluster", "nats://127.0.0.1:\(cluster.routePort)",
                          "--routes", cluster.routes.joined(separator: ",")]
        }
        let process = try PeerProcess(executable: Self.executable, arguments: arguments,
                                      name: "nats-server :\(port)")
        current.set(process)
        do {
            _ = try await process.errorLines.first(within: .seconds(15), "nats-server :\(port) to be ready") {
                $0.contains("Server is ready")
            }
        } catch {
            process.stop()
            throw PeerFailed(description: "\(error); nats-server stderr: \(process.stderr)")
        }
    }

    /// Stops the server (SIGTERM: it shuts down cleanly, keeping its store).
    public func stop() {
        current.take()?.stop()
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        if let process = current.take() {
            process.send(signal: SIGKILL)
            process.stop()
        }
    }

    /// Stops the server and deletes its store.
    public func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: storeDirectory)
    }

    /// The last lines the running server logged, for failure messages.
    public var log: String { current.peek()?.stderr ?? "" }

    /// `nats-server` from PATH, or Debian's `/usr/sbin/nats-server` (not on a user's PATH).
    static let executable: String = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in paths + ["/usr/sbin", "/usr/local/bin", "/usr/bin"] {
            let candidate = directory + "/nats-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "nats-server"
    }()

    deinit { remove() }
}

/// Three `nats-server -js` nodes on loopback, routed to each other as one cluster.
public struct NATSCluster: Sendable {
    public let nodes: [NATSServer]

    /// The client URLs of every node, as a client's server list.
    public var urls: [String] { nodes.map(\.url) }

    public static func start(size: Int = 3) async throws -> NATSCluster {
        let ports = try (0..<size).map { _ in try unusedLoopbackPort() }
        let routePorts = try (0..<size).map { _ in try unusedLoopbackPort() }
        let nodes = (0..<size).map { index in
            NATSServer(port: ports[index], cluster: .init(
                name: "node\(index + 1)", routePort: routePorts[index],
                routes: routePorts.enumerated().filter { $0.offset != index }.map { "nats://127.0.0.1:\($0.element)" }))
        }
        do {
            // All at once: a node's JetStream waits for its peers before it is ready.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for node in nodes { group.addTask { try await node.start() } }
                try await group.waitForAll()
            }
        } catch {
            for node in nodes { node.remove() }
            throw error
        }
        return NATSCluster(nodes: nodes)
    }

    public func remove() { for node in nodes { node.remove() } }
}

/// Runs `body` with a fresh `nats-server -js`, removed afterwards whatever happens.
public func withNATSServer<T>(_ body: (NATSServer) async throws -> T) async throws -> T {
    let server = try await NATSServer.start()
    defer { server.remove() }
    return try await body(server)
}

/// The running process of a `NATSServer`, replaced on restart.
private final class ProcessBox: Sendable {
    private let process = Mutex<PeerProcess?>(nil)

    func set(_ new: PeerProcess) { process.withLock { $0 = new } }
    func take() -> PeerProcess? { process.withLock { current in defer { current = nil }; return current } }
    func peek() -> PeerProcess? { process.withLock { $0 } }
}
