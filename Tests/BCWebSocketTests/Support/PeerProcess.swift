import Foundation
import Synchronization
import Testing

/// A child process (the Python peer, lws' test server, openssl) whose stdout lines can be awaited.
/// `stop()` terminates and waits; `withPeer` guarantees it on every path.
final class PeerProcess {
    let process = Process()
    /// Complete stdout lines, in order.
    let lines = Inbox<String>()
    private let stderrTail = TextTail()
    let name: String

    init(executable: String, arguments: [String], name: String) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = stdoutPipe
        let err = stderrPipe
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let splitter = LineSplitter(inbox: lines)
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                splitter.finish()
            } else {
                splitter.feed(data)
            }
        }
        let tail = stderrTail
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                tail.append(String(decoding: data, as: UTF8.self))
            }
        }
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        // Swift concurrency runs this on a libdispatch worker thread, which blocks almost every
        // signal, and Foundation's Process hands the spawning thread's mask to the child: the peer
        // would then ignore SIGTERM. Spawn with an empty mask, then restore ours.
        var empty = sigset_t()
        var saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
    }

    /// Kept for the life of the helper: a FileHandle freed while its readabilityHandler's
    /// dispatch source is live can crash inside libdispatch.
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()

    /// Signalled once by the termination handler.
    private let exited = DispatchSemaphore(value: 0)
    private let reaped = Mutex(false)

    /// Starts `Tests/Peers/ws_peer.py SCENARIO ARGS...` with the `python3` on PATH.
    static func python(_ scenario: String, _ arguments: [String] = []) throws -> PeerProcess {
        try PeerProcess(executable: "/usr/bin/env",
                        arguments: ["python3", "-u", peerScript, scenario] + arguments,
                        name: "ws_peer.py \(scenario)")
    }

    static let peerScript: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/ws_peer.py").path

    /// The port the peer printed on its first line.
    func port(within timeout: Duration = .seconds(10)) async throws -> Int {
        guard let line = try await lines.next(within: timeout, "\(name) to print its port"),
              let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            throw PeerFailed(description: "\(name) printed no port; stderr: \(stderr)")
        }
        return port
    }

    /// Waits for a report line starting with `prefix`.
    func report(_ prefix: String, within timeout: Duration = .seconds(5)) async throws -> String {
        try await lines.first(within: timeout, "\(name) to report \(prefix)") { $0.hasPrefix(prefix) }
    }

    var stderr: String { stderrTail.text }

    /// Terminates (SIGTERM, then SIGKILL after 2 s) and reaps the process.
    func stop() {
        let alreadyReaped = reaped.withLock { done in
            defer { done = true }
            return done
        }
        guard !alreadyReaped else { return }
        kill(process.processIdentifier, SIGTERM)
        if exited.wait(timeout: .now() + 2) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        process.waitUntilExit()
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
    }

    deinit { stop() }
}

struct PeerFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a peer and stops the peer afterwards, whatever happens.
func withPeer<T>(_ scenario: String, _ arguments: [String] = [], _ body: (PeerProcess, Int) async throws -> T) async throws -> T {
    let peer = try PeerProcess.python(scenario, arguments)
    defer { peer.stop() }
    let port = try await peer.port()
    return try await body(peer, port)
}

/// Cuts stdout data into lines for an `Inbox` (readabilityHandler calls are serialized, the lock
/// is for the compiler and for `finish`).
private final class LineSplitter: Sendable {
    private let pending = Mutex(Data())
    private let inbox: Inbox<String>

    init(inbox: Inbox<String>) { self.inbox = inbox }

    func feed(_ data: Data) {
        let lines: [String] = pending.withLock { pending in
            pending.append(data)
            var lines: [String] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            return lines
        }
        for line in lines { inbox.push(line) }
    }

    func finish() { inbox.finish() }
}

/// A loopback port nothing listens on (bound then released; good enough on a quiet test machine).
func unusedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw PeerFailed(description: "socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw PeerFailed(description: "bind() failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The last few KiB of a process's stderr, for failure messages.
private final class TextTail: Sendable {
    private let storage = Mutex("")

    func append(_ text: String) {
        storage.withLock { $0 = String(($0 + text).suffix(4000)) }
    }

    var text: String { storage.withLock { $0 } }
}
