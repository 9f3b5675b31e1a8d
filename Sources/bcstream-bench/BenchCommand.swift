import ArgumentParser
import BCMessages
import BCReplay
import Foundation

/// `bcstream-bench`: BCStream's measuring harness, a tool of this repository apart from `bcstream` (which users
/// install), with the options and the report `bcstream bench` had.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bcstream-bench",
        abstract: "Measure decoding speed: Foundation's JSONDecoder, the god-class style, and BCStream's fast path.",
        usage: "bcstream-bench [<options>]\nbcstream-bench --end-to-end [--messages <n>] [--in-flight <n>]",
        discussion: """
            Decodes the same messages, in one run and on one thread, three ways: BCMessageDecoder with \
            Foundation's JSONDecoder (the baseline), JSONSerialization into a dictionary read by one class for \
            every kind (the "god class" of the service's old code), and BCMessageDecoder's fast engine (the \
            default). Before timing, it checks that the fast engine gives a value equal to the baseline's (or \
            the same error) for every message. For each way it prints messages/s, MB/s and allocations per \
            message, and last the line `speedup vs JSONDecoder: N.Nx`.

            Build in release and pin to one core for figures worth comparing:
              swift build -c release
              swift build -c release --product MallocInterposerSwift
              taskset -c 0 .build/release/bcstream-bench
              taskset -c 0 .build/release/bcstream-bench --corpus captured-style
              taskset -c 0 .build/release/bcstream-bench --corpus live.ndjson --seconds 5

            Time is this thread's CPU time, the decoders taking turns, so that other load on the machine \
            weighs on all of them alike. Allocations are counted by a malloc interposer \
            (ordo-one/malloc-interposer), in a second run of bcstream-bench that preloads it (LD_PRELOAD) \
            after the timing: it slows every malloc, so bcstream-bench never links it and it never runs while \
            decoders are timed. Build it beside bcstream-bench with \
            `swift build -c release --product MallocInterposerSwift`; without it, allocations print n/a.

            --end-to-end measures the whole path instead: a replay server and a listener in this process, over \
            loopback, the server sending the fixtures round and round as fast as the listener decodes them \
            (--in-flight, 2,000 by default). It prints messages/s, MB/s, CPU time per message over all threads, the \
            latency from frame received to value delivered (p50, p99, max), and the resident memory at every \
            tenth of the run, which should stay flat. A run where delivery stops for 5 s reports how many \
            messages arrived of those sent and exits 1. Use both cores (no taskset): the server, the two \
            WebSocket threads and the listener run side by side.
              .build/release/bcstream-bench --end-to-end          # a million messages
              .build/release/bcstream-bench --end-to-end --in-flight 1 --messages 100000
            """
    )

    @Option(help: """
        What to decode: fixtures (every Tests/Payloads/*.json), captured-style (messages generated in the \
        captured wire shapes, ~500 bytes each), or a file of one message per line.
        """)
    var corpus = "fixtures"

    @Option(help: "Where the fixtures are, for --corpus fixtures.")
    var payloads = "Tests/Payloads"

    @Option(help: "How many messages to generate for --corpus captured-style.")
    var count = 10_000

    @Option(help: "Time each decoder for about this many seconds (after one warm-up pass).")
    var seconds: Double = 2

    @Option(help: "Instead of --seconds: decode the whole corpus this many times per decoder.")
    var iterations: Int?

    @Flag(help: "Also time strict mode (the fast engine and the baseline).")
    var strict = false

    @Option(help: ArgumentHelp(
        "Write the corpus to FILE, one message a line, and exit: the same bytes for another decoder "
            + "(Benchmarks/decode/run.sh gives them to msgspec).", valueName: "file"))
    var saveCorpus: String?

    @Option(help: ArgumentHelp("Time only this decoder (baseline, god-class or fast), for profiling; no check.",
                               visibility: .hidden))
    var only: String?

    @Flag(help: ArgumentHelp("Count allocations per message instead of timing (the bench runs itself so, preloaded).",
                             visibility: .private))
    var countAllocations = false

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard messages > 0 else { throw ValidationError("--messages must be positive") }
        guard inFlight > 0 else { throw ValidationError("--in-flight must be at least 1") }
    }

    @Flag(help: "Measure end to end instead: replay to a listener over loopback, every frame decoded (described above).")
    var endToEnd = false

    @Option(help: "With --end-to-end: how many messages to send.")
    var messages = 1_000_000

    @Option(help: """
        With --end-to-end: how many messages may be sent and not yet decoded. Many keep the pipe full (the \
        throughput); few show the latency of the path itself, since a frame waits behind those in flight.
        """)
    var inFlight = 2_000

    func run() async throws {
        if endToEnd {
            let loader = FixtureFolder.loader()
            let items: [ReplayItem]
            do {
                // The default names the fixture folder, wherever it is found; any other value is the user's path.
                let arguments = payloads == ReplayLoader.defaultFolderPath ? [] : [payloads]
                items = try loader.load(arguments: arguments).items
            } catch {
                throw ValidationError(TerminalText.escaped(error.description))
            }
            try await EndToEndBench(messages: messages, items: items, inFlight: inFlight).run()
        } else {
            try runDecoding()
        }
    }

    func runDecoding() throws {
        let corpus: BenchCorpus
        switch self.corpus {
        case "fixtures":
            do {
                corpus = try BenchCorpus.fixtures(in: payloads)
            } catch {
                throw ValidationError("cannot read the fixtures in \(payloads): run from the repository's root or "
                                      + "pass --payloads DIR (\(error.localizedDescription))")
            }
        case "captured-style":
            corpus = BenchCorpus.capturedStyle(count: count)
        default:
            do {
                corpus = try BenchCorpus.lines(of: self.corpus)
            } catch {
                throw ValidationError(TerminalText.escaped("cannot read \(self.corpus): \(error.localizedDescription)"))
            }
        }
        guard !corpus.messages.isEmpty else { throw ValidationError("the corpus has no messages") }
        if let saveCorpus {
            try corpus.write(toPath: saveCorpus)
            print("wrote \(corpus.messages.count) messages of \(corpus.name) to \(TerminalText.escaped(saveCorpus))")
            return
        }
        if countAllocations {
            // The child run: one line of allocations per message, one figure per decoder, for the parent to read.
            let counts = contenders(corpus).map { _, decode in
                AllocationCounter.count { for data in corpus.messages { blackHole(decode(data)) } }
                    .map { String(Double($0) / Double(corpus.messages.count)) } ?? "n/a"
            }
            print(AllocationCounter.linePrefix + counts.joined(separator: " "))
            return
        }
        #if DEBUG
        print("note: this is a debug build; build with `swift build -c release` for figures worth comparing")
        #endif

        print("corpus: \(corpus.name): \(corpus.messages.count) messages, \(corpus.byteCount) bytes, "
              + "\(corpus.byteCount / corpus.messages.count) bytes a message on average")
        print("machine: \(Machine.description)")
        print("timing: " + (iterations.map { "\($0) passes over the corpus" } ?? "about \(seconds) s of CPU time")
              + " per decoder, in turns, on one thread")
        if only == nil { try checkEquivalence(corpus) }

        let contenders = contenders(corpus)
        print("")
        print(row("decoder", "messages/s", "MB/s", "allocs/msg", "ns/msg"))
        let results = measure(corpus, contenders.map(\.1))
        let allocations = AllocationCounter.perMessageInChildRun(decoders: contenders.count)
        var rates: [String: Double] = [:]
        for (index, ((name, _), result)) in zip(contenders, results).enumerated() {
            rates[name] = result.messagesPerSecond
            print(row(name, result.messagesPerSecond.formatted(digits: 0), result.megabytesPerSecond.formatted(digits: 1),
                      allocations?[index].map { $0.formatted(digits: 1) } ?? "n/a",
                      (1e9 / result.messagesPerSecond).formatted(digits: 0)))
        }
        if let fast = rates["BCStream fast path"], let baseline = rates["JSONDecoder (baseline)"] {
            print("speedup vs JSONDecoder: \((fast / baseline).formatted(digits: 1))x")
        }
    }

    /// The decoders timed, by name, in the order they take turns (each returns the kind it read, or -1).
    private func contenders(_ corpus: BenchCorpus) -> [(String, (Data) -> Int)] {
        let baseline = BCMessageDecoder(mode: .lenient, engine: .foundation)
        let fast = BCMessageDecoder(mode: .lenient, engine: .fast)
        var contenders: [(String, (Data) -> Int)] = [
            ("JSONDecoder (baseline)", { data in (try? baseline.decode(data))?.t ?? -1 }),
            ("god class (JSONSerialization)", { data in GodClassMessage(json: data)?.t ?? -1 }),
            ("BCStream fast path", { data in (try? fast.decode(data))?.t ?? -1 }),
        ]
        if strict {
            let strictBaseline = BCMessageDecoder(mode: .strict, engine: .foundation)
            let strictFast = BCMessageDecoder(mode: .strict, engine: .fast)
            contenders.append(("JSONDecoder, strict", { data in (try? strictBaseline.decode(data))?.t ?? -1 }))
            contenders.append(("BCStream fast path, strict", { data in (try? strictFast.decode(data))?.t ?? -1 }))
        }

        if let only {
            let keep = ["baseline": "JSONDecoder (baseline)", "god-class": "god class (JSONSerialization)",
                        "fast": "BCStream fast path"][only]
            contenders.removeAll { $0.0 != keep }
        }
        return contenders
    }

    /// The fast engine must give what the baseline gives, message for message: a benchmark of a decoder that
    /// is wrong measures nothing.
    private func checkEquivalence(_ corpus: BenchCorpus) throws {
        var mismatches = 0
        var failures = 0
        for (index, data) in corpus.messages.enumerated() {
            for mode in BCMessageDecoder.Mode.allCases {
                let expected = Result { () throws(BCDecodingError) in
                    try BCMessageDecoder(mode: mode, engine: .foundation).decode(data)
                }
                let actual = Result { () throws(BCDecodingError) in
                    try BCMessageDecoder(mode: mode, engine: .fast).decode(data)
                }
                if mode == .lenient, case .failure = expected { failures += 1 }
                if expected != actual {
                    mismatches += 1
                    if mismatches <= 5 {
                        // The corpus can be any file: its text is shown escaped, like every quote of input.
                        print(shown("MISMATCH (\(mode)) in message \(index + 1): \(String(decoding: data.prefix(200), as: UTF8.self))"))
                        print(shown("  JSONDecoder: \(expected)"))
                        print(shown("  fast path:   \(actual)"))
                    }
                }
            }
        }
        if mismatches > 0 { throw ValidationError("the fast path differs from JSONDecoder on \(mismatches) decodes") }
        print("check: the fast path and JSONDecoder agree on every message, lenient and strict "
              + "(\(failures) of them fail to decode in both)")
    }

    private struct Measurement {
        var messagesPerSecond: Double
        var megabytesPerSecond: Double
    }

    /// Times the decoders in turns (one pass over the corpus each, round after round) rather than one after
    /// the other, so that a change in the machine's load during the run weighs on all of them alike. Time is
    /// this thread's CPU time, which other processes on a busy machine do not inflate.
    private func measure(_ corpus: BenchCorpus, _ decoders: [(Data) -> Int]) -> [Measurement] {
        var checksum = 0
        for decode in decoders {
            for data in corpus.messages { checksum &+= decode(data) }  // warm-up
        }
        var spent = [Double](repeating: 0, count: decoders.count)
        var passes = [Int](repeating: 0, count: decoders.count)
        let rounds = iterations ?? Int.max
        // The clock (a system call) is read every thousand messages or so, not after each pass: over a corpus of
        // one small message, reading it after every pass took half the time measured.
        let passesPerReading = iterations == nil ? max(1, 1_000 / max(1, corpus.messages.count)) : 1
        var round = 0
        while round < rounds {
            for (index, decode) in decoders.enumerated() {
                let start = threadCPUTime()
                // At least ~20 ms a turn, so that reading the clock costs nothing measurable.
                repeat {
                    for _ in 0..<passesPerReading {
                        for data in corpus.messages { checksum &+= decode(data) }
                    }
                    passes[index] += passesPerReading
                } while iterations == nil && threadCPUTime() - start < 0.02
                spent[index] += threadCPUTime() - start
            }
            round += 1
            if iterations == nil, (spent.min() ?? 0) >= seconds { break }
        }
        let results = decoders.indices.map { index in
            let messages = Double(passes[index] * corpus.messages.count)
            return Measurement(
                messagesPerSecond: messages / spent[index],
                megabytesPerSecond: Double(passes[index] * corpus.byteCount) / spent[index] / 1e6)
        }
        blackHole(checksum)
        return results
    }

    private func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func row(_ name: String, _ rate: String, _ megabytes: String, _ allocations: String, _ nanoseconds: String) -> String {
        name.padding(toLength: 32, withPad: " ", startingAt: 0) + rate.leftPadded(12) + megabytes.leftPadded(10)
            + allocations.leftPadded(12) + nanoseconds.leftPadded(10)
    }
}

/// What the service's old code did: `JSONSerialization` into a dictionary, and one class for every kind that
/// reads the keys it knows with casts and conversions. It neither validates kinds nor reports precise errors;
/// it is here as a reference point.
final class GodClassMessage {
    let t: Int
    let userID: String?
    let userName: String?
    let text: String?
    let giftID: String?
    let count: Int?
    let coins: Int?
    let rankings: [[String: Any]]?
    let raw: [String: Any]

    init?(json: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
        func string(_ key: String) -> String? {
            switch object[key] {
            case let string as String: string
            case let number as NSNumber: number.stringValue
            default: nil
            }
        }
        func int(_ key: String) -> Int? {
            switch object[key] {
            case let string as String: Int(string)
            case let number as NSNumber: number.intValue
            default: nil
            }
        }
        guard let t = int("t") else { return nil }
        self.t = t
        userID = string("u")
        userName = string("ac")
        text = string("cm")
        giftID = string("gift_id")
        count = int("count")
        coins = int("coins")
        rankings = object["rankings"] as? [[String: Any]]
        raw = object
    }
}

enum Machine {
    static var description: String {
        var cpu = "unknown CPU"
        #if os(Linux)
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let name = line.split(separator: ":", maxSplits: 1).last {
            cpu = name.trimmingCharacters(in: .whitespaces)
        }
        #endif
        #if compiler(>=6.3)
        let swift = "Swift 6.3+"
        #else
        let swift = "Swift 6"
        #endif
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores online, "
            + "\(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(swift)"
    }
}

/// A line quoting text from the corpus or the fixtures (any file) as it may be printed: every control escaped, at
/// most a thousand Unicode scalars (as `bcstream` reports quote input).
func shown(_ text: String) -> String {
    TerminalText.escaped(TerminalText.excerpt(text, limit: 1_000))
}

@inline(never)
func blackHole(_ value: Int) {
    if value == .min { print("") }
}

extension Double {
    func formatted(digits: Int) -> String {
        let text = String(format: "%.\(digits)f", self)
        guard digits == 0, let int = Int(text) else { return text }
        // Thousands separators: rates are easier to compare as 1,234,567.
        var digits = Array(String(int.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (int < 0 ? "-" : "") + String(digits)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
