import Foundation
import Synchronization

/// A child process (a Python peer, lws' test server, openssl, the built `bcstream`) whose stdout lines can be
/// awaited. `stop()` terminates and reaps it; `withPeer` guarantees that on every path.
///
/// `@unchecked Sendable`: `process` is configured in `init` and afterwards only signalled and reaped by `stop()`,
/// which the `reaped` lock makes run once; every other member is `Sendable`.
public final class PeerProcess: @unchecked Sendable {
    let process = Process()
    /// Complete stdout lines, in order; waiting for one consumes the lines before it.
    public let lines = Inbox<String>()
    /// Complete stderr lines, in order (finished at end of file, like `lines`).
    public let errorLines = Inbox<String>()
    private let transcriptLines = Transcript()
    private let stderrTail = TextTail()
    private let exit = ExitWatch()
    private let stdin = Pipe()
    /// The child's stdout and stderr, each read to its end by a thread of its own (`drain`).
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    public let name: String
    /// The child's process id (for reading its /proc entry).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments`; its stdin is a pipe that stays open, empty, until `stop()`.
    /// `environment` adds to (or replaces entries of) this process's environment; `directory`, when given, is its
    /// working directory (this process's otherwise).
    public init(executable: String, arguments: [String], name: String, environment: [String: String] = [:],
                directory: URL? = nil) throws {
        self.name = name
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = stdoutPipe
        let err = stderrPipe
        process.standardOutput = out
        process.standardError = err
        // A pipe nobody writes to: the peers exit when it reaches end of file, which happens when `stop()` closes
        // it or when this process dies without stopping them (a crash, a killed test run), so no peer outlives
        // its test.
        process.standardInput = stdin
        // Only this process may hold the write end: a sibling that inherited it would keep the pipe open.
        _ = fcntl(stdin.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        // The same for every other end this process holds: a child spawned meanwhile by another test would
        // otherwise inherit the write end of this child's stdout or stderr, and the end of that output would
        // wait for the other child's exit. The child still gets its own ends (dup2 onto 0, 1 and 2 clears the
        // flag on the copies).
        for handle in [stdin.fileHandleForReading, out.fileHandleForReading, out.fileHandleForWriting,
                       err.fileHandleForReading, err.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        let splitter = LineSplitter(inbox: lines, transcript: transcriptLines)
        let tail = stderrTail
        let errorSplitter = LineSplitter(inbox: errorLines, transcript: Transcript())
        // Read by a blocking loop on a thread of its own, not `readabilityHandler`: installing and tearing down
        // that dispatch read source from many tests at once corrupts libdispatch's epoll bookkeeping on Linux
        // (swift-corelibs-libdispatch#949), which crashed the whole test process in `_dispatch_event_loop_drain`.
        Self.drain(out.fileHandleForReading, name: "\(name) stdout", feed: splitter.feed, finish: splitter.finish)
        Self.drain(err.fileHandleForReading, name: "\(name) stderr", feed: { data in
            tail.append(String(decoding: data, as: UTF8.self))
            errorSplitter.feed(data)
        }, finish: errorSplitter.finish)
        let exit = exit
        process.terminationHandler = { process in exit.record(process.terminationStatus) }
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

    private let reaped = Mutex(false)

    /// Starts `Tests/Peers/<script> SCENARIO ARGS...` with the `python3` on PATH, unbuffered.
    public static func python(_ script: PeerScript, _ scenario: String, _ arguments: [String] = []) throws
        -> PeerProcess {
        try PeerProcess(executable: "/usr/bin/env",
                        arguments: ["python3", "-u", script.path, scenario] + arguments,
                        name: "\(script.file) \(scenario)")
    }

    /// The port the peer printed on its first line.
    public func port(within timeout: Duration = .seconds(10)) async throws -> Int {
        guard let line = try await lines.next(within: timeout, "\(name) to print its port"),
              let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            throw PeerFailed(description: "\(name) printed no port; stderr: \(stderr)")
        }
        return port
    }

    /// Waits for a report line starting with `prefix`, skipping (and consuming) the lines before it.
    public func report(_ prefix: String, within timeout: Duration = .seconds(5)) async throws -> String {
        try await lines.first(within: timeout, "\(name) to report \(prefix)") { $0.hasPrefix(prefix) }
    }

    /// Waits until the peer has printed `times` lines starting with `prefix`, and returns the last of them. Unlike
    /// `report`, the order of waits does not matter: lines read by earlier waits are still found.
    public func reported(_ prefix: String, times: Int = 1, within timeout: Duration = .seconds(5)) async throws
        -> String {
        let lines = lines
        let transcript = transcriptLines
        let name = name
        return try await withTimeout(timeout, "\(name) to report \(prefix) (×\(times))") {
            while true {
                // The splitter adds a line to the transcript before the inbox: whatever the inbox hands out
                // below is in the transcript at the next check.
                let matching = transcript.lines.filter { $0.hasPrefix(prefix) }
                if matching.count >= times { return matching[times - 1] }
                // A longer bound than the outer one, whose message says what was awaited.
                guard try await lines.next(within: timeout + .seconds(1)) != nil else {
                    throw PeerFailed(description: "\(name) ended its output before reporting \(prefix)")
                }
            }
        }
    }

    /// Every stdout line so far, waited for or not.
    public var transcript: [String] { transcriptLines.lines }

    /// The last few KiB of stderr, for failure messages.
    public var stderr: String { stderrTail.text }

    /// Waits until the process exits by itself and returns its exit status (the signal number if a signal
    /// ended it); throws `TimedOut`.
    public func exitStatus(within timeout: Duration) async throws -> Int32 {
        let exit = exit
        return try await withTimeout(timeout, "\(name) to exit") { await exit.status() }
    }

    /// Sends `signal` (SIGKILL: a crash; SIGTERM: a polite stop) without waiting; `stop()` still reaps it.
    public func send(signal: Int32) {
        if !exit.hasExited { kill(process.processIdentifier, signal) }
    }

    /// Writes `line` and a newline to the process's stdin (a peer reads commands there, e.g. "release").
    public func write(line: String) throws {
        try stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Terminates (SIGTERM, then SIGKILL after 2 s) and reaps the process.
    public func stop() {
        let alreadyReaped = reaped.withLock { done in
            defer { done = true }
            return done
        }
        guard !alreadyReaped else { return }
        try? stdin.fileHandleForWriting.close()
        if !exit.hasExited {
            kill(process.processIdentifier, SIGTERM)
            if !exit.wait(timeout: .now() + 2) {
                kill(process.processIdentifier, SIGKILL)
                _ = exit.wait(timeout: .distantFuture)
            }
        }
        process.waitUntilExit()
    }

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `feed`, then calls `finish`. The
    /// thread holds the handle, so its descriptor stays open (and cannot be reused by another file) until the
    /// child's end of the pipe closes: when the child exits, or when `stop()` has made it.
    private static func drain(_ handle: FileHandle, name: String, feed: @escaping @Sendable (Data) -> Void,
                              finish: @escaping @Sendable () -> Void) {
        let thread = Thread {
            let descriptor = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    feed(Data(buffer[..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            finish()
            withExtendedLifetime(handle) {}
        }
        thread.name = name
        thread.start()
    }

    deinit { stop() }
}

/// A script in `Tests/Peers`.
public struct PeerScript: Sendable, Hashable {
    /// The file name, e.g. `ws_peer.py`.
    public let file: String

    public init(file: String) { self.file = file }

    /// The plain WebSocket peer BCWebSocketTests drive (echo, fragments, statuses, silence, TLS).
    public static let webSocket = PeerScript(file: "ws_peer.py")
    /// The scripted bcsvr server BCListener's integration tests drive.
    public static let bcsvr = PeerScript(file: "bcsvr_peer.py")
    /// The stand-in for the live directory's REST API over HTTPS (the shared samples and failure answers).
    public static let api = PeerScript(file: "api_peer.py")

    /// `Tests/Peers`, found from this file: `Tests/TestSupport/PeerProcess.swift`.
    public static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers").path

    public var path: String { Self.directory + "/" + file }
}

public struct PeerFailed: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Runs `body` with a peer listening on a loopback port and stops the peer afterwards, whatever happens.
public func withPeer<T>(
    _ scenario: String, _ arguments: [String] = [], script: PeerScript = .webSocket,
    _ body: (PeerProcess, Int) async throws -> T
) async throws -> T {
    let peer = try PeerProcess.python(script, scenario, arguments)
    defer { peer.stop() }
    let port = try await peer.port()
    return try await body(peer, port)
}

/// Cuts stdout data into lines for an `Inbox` and the transcript (readabilityHandler calls are serialized, the
/// lock is for the compiler and for `finish`).
private final class LineSplitter: Sendable {
    private let pending = Mutex(Data())
    private let inbox: Inbox<String>
    private let transcript: Transcript

    init(inbox: Inbox<String>, transcript: Transcript) {
        self.inbox = inbox
        self.transcript = transcript
    }

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
        // The transcript first: once a waiter sees a line, every line before it is in the transcript.
        transcript.append(lines)
        for line in lines { inbox.push(line) }
    }

    func finish() { inbox.finish() }
}

/// Every stdout line of a process.
private final class Transcript: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ lines: [String]) { storage.withLock { $0 += lines } }

    var lines: [String] { storage.withLock { $0 } }
}

/// The exit status once the process has exited, for blocking (`stop`) and async (`exitStatus`) waiters.
private final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())
    private let exited = DispatchSemaphore(value: 0)

    func record(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
        exited.signal()
    }

    var hasExited: Bool { state.withLock { $0.status != nil } }

    /// Blocks until the process exits or `timeout` passes; true if it exited.
    func wait(timeout: DispatchTime) -> Bool {
        if hasExited { return true }
        return exited.wait(timeout: timeout) == .success
    }

    func status() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}

/// A loopback port nothing listens on (bound then released; good enough on a quiet test machine).
public func unusedLoopbackPort() throws -> Int {
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
