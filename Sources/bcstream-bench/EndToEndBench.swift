import BCListener
import BCMessages
import BCReplay
import BCWebSocket
import Foundation
import Synchronization

/// `bcstream-bench --end-to-end`: a replay server and a listener in one process over loopback, the server
/// sending fixtures as fast as the listener takes them, every frame decoded. Prints messages/s, the latency
/// from frame received to value delivered (p50, p99, max), and the resident memory as the run goes on, which
/// must stay flat.
struct EndToEndBench {
    /// How many messages to send.
    let messages: Int
    /// The fixtures sent, over and over.
    let items: [ReplayItem]
    /// How many messages may be in flight (sent, not yet delivered): the replay's backpressure, so the
    /// server's queue, and memory, stay bounded however fast it could send. At full speed a frame waits
    /// behind the ones in flight, so this also sets the latency: fewer in flight, lower latency.
    let inFlight: Int

    /// The server is given this many messages at a time, and told of deliveries this often.
    private var batch: Int { max(1, inFlight / 4) }

    func run() async throws {
        guard !items.isEmpty else { throw BenchFailure("no fixtures to send") }
        // A `.sent` entry per message for a log nobody reads here cost the server some 15% of the whole run.
        let server = try await ReplayServer(schedule: nil, logsSends: false)
        let drain = Task { for await _ in server.activity {} }
        let loop = WebSocketLoop(name: "bcstream.bench")
        guard let url = URL(string: "ws://\(server.host):\(server.port)/") else { throw BenchFailure("bad URL") }
        var configuration = BCListenerConfiguration(key: try ChannelKey("bench:e2e"), url: url)
        configuration.stopOnLiveEnd = false  // the fixtures include t=8 and t=123; the bench goes on
        // Uncompressed: deflate on loopback measures zlib, not decoding.
        var webSocket = WebSocketClientConfiguration()
        webSocket.permessageDeflate = false
        let listener = ChannelListener(configuration: configuration, webSocket: webSocket, loop: loop)

        let (progress, reportProgress) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        var latencies = LatencyHistogram()
        var delivered = 0
        var bytes = 0
        var memory: [(messages: Int, residentMiB: Double)] = []
        let checkpoints = Set((1...10).map { messages * $0 / 10 })
        let counters = BenchCounters()
        let feeder = Task { [key = configuration.key] in
            // The listener reports `subscribed` once its SUB is sent; the server may not have read it yet.
            await server.waitForSubscriber(to: key)
            await feed(server, progress: progress, counters: counters)
        }
        // A run that stops moving is reported and ended, not left hanging.
        let watchdog = Task {
            var last = -1
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                let now = counters.delivered.load(ordering: .relaxed)
                if now == last {
                    FileHandle.standardError.write(Data(("bench: stalled: \(now) delivered of "
                        + "\(counters.sent.load(ordering: .relaxed)) sent\n").utf8))
                    exit(1)
                }
                last = now
            }
        }
        let clock = ContinuousClock()
        var started = clock.now
        var cpuAtStart = ProcessCPU.seconds()

        for await event in listener {
            switch event {
            case .subscribed:
                if delivered == 0 {
                    started = clock.now
                    cpuAtStart = ProcessCPU.seconds()
                }
            case .message(_, let raw, _, let receivedAt):
                latencies.record(Date().timeIntervalSince(receivedAt))
                bytes += raw.utf8.count
                delivered += 1
                counters.delivered.store(delivered, ordering: .relaxed)
                if delivered % batch == 0 { reportProgress.yield(delivered) }
                if checkpoints.contains(delivered) {
                    memory.append((delivered, ProcessMemory.residentMiB()))
                    FileHandle.standardError.write(Data("\(delivered) messages…\n".utf8))
                }
            case .undecodable(_, let raw, let reason):
                throw BenchFailure(shown("a fixture did not decode (\(reason)): \(raw.prefix(80))"))
            case .failed(let failure):
                throw BenchFailure("the listener stopped: \(failure)")
            case .disconnected, .reconnecting:
                FileHandle.standardError.write(Data("bench: \(event)\n".utf8))
            default:
                break
            }
            if delivered >= messages { break }
        }
        let elapsed = clock.now - started
        let cpu = ProcessCPU.seconds() - cpuAtStart
        reportProgress.finish()
        feeder.cancel()
        watchdog.cancel()
        await loop.shutdown()
        await server.stop()
        drain.cancel()

        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("end to end over loopback: replay → WebSocket → listener → decoded value, \(delivered) messages, "
            + "at most \(inFlight) in flight")
        print("  messages/s      \(Int(Double(delivered) / seconds))")
        print("  MB/s            \(String(format: "%.1f", Double(bytes) / seconds / 1e6))")
        // Server, listener and decoding share this process, so this is the whole path's cost per message.
        print("  CPU per message \(String(format: "%.1f", cpu / Double(max(delivered, 1)) * 1e6)) µs, all threads "
            + "(\(String(format: "%.2f", cpu / seconds)) cores busy on average)")
        print("  latency, frame received → value delivered: p50 \(latencies.percentile(0.5)), "
            + "p99 \(latencies.percentile(0.99)), max \(latencies.percentile(1))")
        let series = memory.map { "\($0.messages / 1000)k: \(String(format: "%.1f", $0.residentMiB))" }
        print("  resident MiB    " + series.joined(separator: "  "))
        if let first = memory.first, let last = memory.last {
            // The kernel folds threads' page counts into VmHWM lazily; a checkpoint may have seen more.
            let peak = max(ProcessMemory.peakMiB(), memory.map(\.residentMiB).max() ?? 0)
            print("  memory growth, first tenth to end: \(String(format: "%.2fx", last.residentMiB / first.residentMiB))"
                + "; peak \(String(format: "%.1f", peak)) MiB")
        }
    }

    /// Sends the fixtures round and round, keeping at most `inFlight` messages ahead of what was delivered.
    private func feed(_ server: ReplayServer, progress: AsyncStream<Int>, counters: BenchCounters) async {
        var sent = 0
        var delivered = 0
        var progressIterator = progress.makeAsyncIterator()
        var next = 0
        while sent < messages, !Task.isCancelled {
            let batch = min(self.batch, messages - sent)
            var chunk: [ReplayItem] = []
            chunk.reserveCapacity(batch)
            for _ in 0..<batch {
                chunk.append(items[next])
                next = (next + 1) % items.count
            }
            await server.push(chunk)
            sent += batch
            counters.sent.store(sent, ordering: .relaxed)
            // Room for the next batch before pushing it.
            while sent - delivered > inFlight - self.batch, !Task.isCancelled {
                guard let count = await progressIterator.next() else { return }
                delivered = count
            }
        }
    }
}

/// What the feeder sent and the consumer received, read by the watchdog.
final class BenchCounters: Sendable {
    let sent = Atomic<Int>(0)
    let delivered = Atomic<Int>(0)
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Latencies in microsecond buckets up to one second (the last bucket holds everything slower), allocated once
/// so that measuring does not grow memory.
struct LatencyHistogram {
    private var buckets = [Int](repeating: 0, count: 1_000_001)
    private var count = 0

    mutating func record(_ seconds: TimeInterval) {
        buckets[min(buckets.count - 1, max(0, Int(seconds * 1e6)))] += 1
        count += 1
    }

    /// "85 µs", "1.2 ms".
    func percentile(_ fraction: Double) -> String {
        guard count > 0 else { return "n/a" }
        let rank = max(1, Int((Double(count) * fraction).rounded(.up)))
        var seen = 0
        for (micros, bucket) in buckets.enumerated() {
            seen += bucket
            if seen >= rank {
                return micros < 1000 ? "\(micros) µs" : String(format: "%.1f ms", Double(micros) / 1000)
            }
        }
        return "n/a"
    }
}

/// The CPU time this process has used, all threads, user and system.
enum ProcessCPU {
    static func seconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        let who = RUSAGE_SELF.rawValue  // an enum in Glibc, a plain Int32 on Darwin
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// This process's memory, from /proc/self/status (Linux).
enum ProcessMemory {
    static func residentMiB() -> Double { field("VmRSS:") }
    static func peakMiB() -> Double { field("VmHWM:") }

    private static func field(_ name: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
