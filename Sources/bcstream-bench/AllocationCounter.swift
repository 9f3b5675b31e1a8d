import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Allocation counts for `bcstream-bench`, from the malloc interposer (ordo-one/malloc-interposer) preloaded
/// into a second run of the bench.
///
/// Neither bcstream nor bcstream-bench links the interposer: a library that exports `malloc` and `free` replaces
/// them for the whole process it is linked into, and every command (listen, replay, the timed decoders themselves)
/// paid for its bookkeeping on each allocation. The library is built beside bcstream-bench (`swift build -c release
/// --product MallocInterposerSwift`), preloaded only into the counting run, and reached there through `dlsym`.
enum AllocationCounter {
    /// What the child run prints before its figures.
    static let linePrefix = "allocations per message: "

    /// The interposer library beside the executable, when it was built.
    static var library: String? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let path = executable.deletingLastPathComponent().appendingPathComponent("libMallocInterposerSwift.so").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Runs this bench again with the interposer preloaded and `--count-allocations`, and reads the figure of
    /// each decoder it prints; nil when the library is not beside the executable or the run fails. Timing
    /// happens in the parent, never under the interposer.
    static func perMessageInChildRun(decoders: Int) -> [Double?]? {
        #if os(Linux)
        guard let library else { return nil }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let process = Process()
        process.executableURL = executable
        process.arguments = Array(CommandLine.arguments.dropFirst()) + ["--count-allocations"]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [library, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: ":")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix(linePrefix) })
        else { return nil }
        let figures = line.dropFirst(linePrefix.count).split(separator: " ").map { Double($0) }
        return figures.count == decoders ? figures : nil
        #else
        return nil
        #endif
    }

    /// The number of allocations `body` makes, or nil when the interposer is not preloaded.
    static func count(_ body: () -> Void) -> Int? {
        #if os(Linux)
        typealias Call = @convention(c) () -> Void
        typealias Statistics = @convention(c) (
            UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
            UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
        ) -> Void
        // RTLD_DEFAULT (a null handle): the symbols of every library loaded, the preloaded one among them.
        guard let reset = dlsym(nil, "malloc_interposer_reset"), let enable = dlsym(nil, "malloc_interposer_enable"),
              let disable = dlsym(nil, "malloc_interposer_disable"),
              let statistics = dlsym(nil, "malloc_interposer_get_stats")
        else { return nil }
        unsafeBitCast(reset, to: Call.self)()
        unsafeBitCast(enable, to: Call.self)()
        body()
        unsafeBitCast(disable, to: Call.self)()
        var counts = [Int64](repeating: 0, count: 6)
        counts.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            unsafeBitCast(statistics, to: Statistics.self)(base, base + 1, base + 2, base + 3, base + 4, base + 5)
        }
        return counts[0] > 0 ? Int(counts[0]) : nil
        #else
        return nil
        #endif
    }
}
