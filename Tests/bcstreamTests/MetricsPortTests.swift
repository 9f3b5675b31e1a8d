import Foundation
import TestSupport
import Testing

/// The metrics port of a real `bcstream worker` (against a real `nats-server -js`) that runs out of file
/// descriptors: issue 31 §2 saw the port stop listening for good after one EMFILE while the worker ran on.
@Suite(.timeLimit(.minutes(2))) struct MetricsPortTests {
    /// Starts `bcstream worker --metrics-port 0` under `prlimit --nofile=<limits>`; the worker and its port.
    private func worker(_ server: NATSServer, limits: String, _ extra: [String] = []) async throws -> (PeerProcess, Int) {
        let worker = try PeerProcess(
            executable: "/usr/bin/prlimit",
            arguments: ["--nofile=\(limits)", "--", BCStreamProcess.executable.path, "worker", "--nats", server.url,
                        "--metrics-port", "0"] + extra,
            name: "worker")
        let announced = try await worker.errorLines.first(within: .seconds(15), "the metrics port") {
            $0.contains("metrics on http://127.0.0.1:")
        }
        let port = try #require(announced.components(separatedBy: "127.0.0.1:").last
            .flatMap { Int($0.prefix { $0.isNumber }) })
        _ = try await worker.errorLines.first(within: .seconds(15), "the worker to wait for lives") {
            $0.contains("waiting for lives")
        }
        return (worker, port)
    }

    /// As `listen` does: the soft limit is raised toward the hard one, to a socket per live, the metrics
    /// port's 1,024 connections and 64 more.
    @Test func theWorkerRaisesItsDescriptorLimit() async throws {
        try await withNATSServer { server in
            let (worker, _) = try await worker(server, limits: "256:20000", ["--max-lives", "100"])
            defer { worker.stop() }
            let limits = try String(contentsOfFile: "/proc/\(worker.processIdentifier)/limits", encoding: .utf8)
            let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
            let soft = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first
            #expect(soft == "1188", "\(line)")
        }
    }

    /// The worker is started under `prlimit --nofile=40:40` (it uses some 17 descriptors waiting for lives, and
    /// cannot raise a hard limit): 60 idle connections exhaust the rest, so accepts fail with EMFILE.
    @Test func aWorkerOutOfDescriptorsKeepsAnsweringScrapes() async throws {
        try await withNATSServer { server in
            let (worker, port) = try await worker(server, limits: "40:40")
            defer { worker.stop() }

            var idle: [Int32] = []
            defer { for fd in idle { close(fd) } }
            for _ in 0..<60 {
                let fd = LoopbackClient.connect(port: port, waiting: false)
                try #require(fd >= 0)
                idle.append(fd)
            }
            let during = await offPool { LoopbackClient.scrape(port: port) }
            #expect(during?.status == 200, "\(worker.stderr)")
            #expect((during?.elapsed ?? .seconds(99)) < .seconds(1), "\(String(describing: during?.elapsed))")
            let failures = during?.body.split(separator: "\n")
                .first { $0.hasPrefix("bcstream_metrics_accept_errors_total ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }
            #expect((failures ?? 0) > 0, "no accept failed: the test did not exhaust the worker's descriptors")

            for fd in idle { close(fd) }
            idle = []
            for _ in 0..<3 {
                let after = await offPool { LoopbackClient.scrape(port: port) }
                #expect(after?.status == 200)
                #expect((after?.elapsed ?? .seconds(99)) < .seconds(1), "\(String(describing: after?.elapsed))")
                #expect(after?.body.contains("bcstream_lives_active") == true)
            }
            worker.send(signal: SIGTERM)
            #expect(try await worker.exitStatus(within: .seconds(10)) == 0, "\(worker.stderr)")
        }
    }
}
