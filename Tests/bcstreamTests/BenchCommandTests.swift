import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// `bench --end-to-end` replays to a listener over loopback until every message sent has been decoded; a
    /// message lost on the way (say, pushed before the server had the subscription) makes its watchdog exit 1.
    @Test(.timeLimit(.minutes(1)))
    func endToEndDeliversEveryMessageAndReportsFigures() throws {
        let result = try BCStreamProcess.run(["bench", "--end-to-end", "--messages", "3000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("listener → decoded value, 3000 messages"), "\(result.stdout)")
        for figure in ["messages/s", "latency, frame received → value delivered: p50", "resident MiB", "memory growth"] {
            #expect(result.stdout.contains(figure), "the report gives \(figure)")
        }
        #expect(result.stderr.contains("3000 messages…"))
    }

    /// Decoders are timed in a process without the malloc interposer (bcstream does not link it: it replaces
    /// malloc for the whole process), and allocations are counted in a second run that preloads it.
    @Test(.timeLimit(.minutes(1)))
    func allocationsAreCountedInAPreloadedRunNotTheTimedOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiny-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(repeating: #"{"t":23,"online_viewer_num":44,"total_viewer_num":120}"# + "\n", count: 20)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try BCStreamProcess.run(["bench", "--corpus", path, "--iterations", "2", "--only", "fast"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("BCStream fast path") }
        let columns = row?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        // name (3 words), messages/s, MB/s, allocs/msg, ns/msg
        #expect(columns.count == 7, "\(result.stdout)")
        if columns.count == 7 {
            #expect(Double(columns[5]).map { $0 > 0 && $0 < 20 } == true, "allocations a message: \(columns[5])")
        }
        let libraries = try BCStreamProcess.run([BCStreamProcess.executable.path],
                                                executable: URL(fileURLWithPath: "/usr/bin/ldd"))
        #expect(libraries.status == 0 && libraries.stdout.contains("libc.so"), "\(libraries.stderr)")
        #expect(!libraries.stdout.contains("libMallocInterposerSwift"), "bcstream links the interposer")
    }

    /// `--save-corpus` writes the messages bench would decode, one a line, byte for byte: what
    /// Benchmarks/decode/run.sh hands to msgspec, so both decoders read the same bytes.
    @Test(arguments: ["fixtures", "captured-style"])
    func saveCorpusWritesTheMessagesOneALine(corpus: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try BCStreamProcess.run(["bench", "--corpus", corpus, "--count", "50", "--save-corpus", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        if corpus == "fixtures" {
            let payloads = BCStreamProcess.repository.appendingPathComponent("Tests/Payloads").path
            let fixtures = try FileManager.default.contentsOfDirectory(atPath: payloads).filter { $0.hasSuffix(".json") }
            #expect(lines.count == fixtures.count)
            let first = try String(contentsOfFile: payloads + "/" + fixtures.sorted()[0], encoding: .utf8)
            #expect(String(lines[0]) == first, "the first fixture, byte for byte")
        } else {
            #expect(lines.count == 50)
        }
        #expect(result.stdout.contains("wrote \(lines.count) messages"))
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "each line is one JSON message")
        }
    }
}
