import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// The options `bcstream bench` took, under the bench's own name, in help that fits 80 columns.
    @Test func helpNamesTheBenchAndItsOptions() throws {
        let result = try BCStreamProcess.run(["--help"], executable: BCStreamProcess.bench)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: bcstream-bench"), "\(result.stdout)")
        for option in ["--corpus", "--payloads", "--count", "--seconds", "--iterations", "--strict", "--save-corpus",
                       "--end-to-end", "--messages", "--in-flight"] {
            #expect(result.stdout.contains(option), "\(option)")
        }
        let long = result.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(long.isEmpty, "lines over 80 columns:\n\(long.joined(separator: "\n"))")
    }

    /// `bcstream-bench --end-to-end` replays to a listener over loopback until every message sent has been decoded; a
    /// message lost on the way (say, pushed before the server had the subscription) makes its watchdog exit 1.
    @Test(.timeLimit(.minutes(1)))
    func endToEndDeliversEveryMessageAndReportsFigures() throws {
        let result = try BCStreamProcess.run(["--end-to-end", "--messages", "3000"], executable: BCStreamProcess.bench)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("listener → decoded value, 3000 messages"), "\(result.stdout)")
        for figure in ["messages/s", "latency, frame received → value delivered: p50", "resident MiB", "memory growth"] {
            #expect(result.stdout.contains(figure), "the report gives \(figure)")
        }
        #expect(result.stderr.contains("3000 messages…"))
    }

    /// Decoders are timed in a process without the malloc interposer (bcstream-bench does not link it, nor does
    /// bcstream: it replaces malloc for the whole process), and allocations are counted in a second run that
    /// preloads it.
    @Test(.timeLimit(.minutes(1)))
    func allocationsAreCountedInAPreloadedRunNotTheTimedOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiny-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(repeating: #"{"t":23,"online_viewer_num":44,"total_viewer_num":120}"# + "\n", count: 20)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try BCStreamProcess.run(["--corpus", path, "--iterations", "2", "--only", "fast"],
                                            executable: BCStreamProcess.bench)
        #expect(result.status == 0, "\(result.stderr)")
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("BCStream fast path") }
        let columns = row?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        // name (3 words), messages/s, MB/s, allocs/msg, ns/msg
        #expect(columns.count == 7, "\(result.stdout)")
        if columns.count == 7 {
            #expect(Double(columns[5]).map { $0 > 0 && $0 < 20 } == true, "allocations a message: \(columns[5])")
        }
        for program in [BCStreamProcess.bench, BCStreamProcess.executable] {
            let libraries = try BCStreamProcess.run([program.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
            #expect(libraries.status == 0 && libraries.stdout.contains("libc.so"), "\(libraries.stderr)")
            #expect(!libraries.stdout.contains("libMallocInterposerSwift"), "\(program.lastPathComponent) links the interposer")
        }
    }

    /// `--save-corpus` writes the messages bench would decode, one a line, byte for byte: what
    /// Benchmarks/decode/run.sh hands to msgspec, so both decoders read the same bytes.
    @Test(arguments: ["fixtures", "captured-style"])
    func saveCorpusWritesTheMessagesOneALine(corpus: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try BCStreamProcess.run(["--corpus", corpus, "--count", "50", "--save-corpus", path],
                                            executable: BCStreamProcess.bench)
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
