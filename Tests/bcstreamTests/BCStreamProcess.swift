import Foundation

/// Runs the built `bcstream` binary as a user would, feeding stdin and collecting stdout, stderr and the
/// exit status.
struct BCStreamProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// `bcstream` sits beside the test bundle in the build folder.
    static let executable = built("bcstream")

    /// `bcstream-bench`, the measuring harness, beside it.
    static let bench = built("bcstream-bench")

    /// The executable `name` of the build folder that holds the test bundle.
    private static func built(_ name: String) -> URL {
        var url = Bundle.main.bundleURL
        while url.path != "/" {
            let candidate = url.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: name)
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `bcstream` (or `executable`) with `arguments` in `directory` (the checkout by default), `stdin` as its
    /// input, to its exit.
    static func run(_ arguments: [String], stdin: String = "", executable: URL = executable,
                    prefix: [String] = [], in directory: URL = repository) throws -> Result {
        try run(arguments, input: Data(stdin.utf8), executable: executable, prefix: prefix, in: directory)
    }

    /// As `run(_:stdin:…)`, with stdin given as bytes (which need not be UTF-8).
    static func run(_ arguments: [String], input: Data, executable: URL = executable,
                    prefix: [String] = [], in directory: URL = repository) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = prefix + arguments
        process.currentDirectoryURL = directory
        let stdin = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Written while the child runs, so that an input larger than the pipe reaches it as it reads.
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A running `bcstream` whose stdout is read line by line while it runs (a server, say).
    final class Running {
        let process: Process
        private let output: FileHandle
        private var buffer = Data()

        /// The write end of its stdin, when it was started with `input: true`.
        let input: FileHandle?

        init(process: Process, output: FileHandle, input: FileHandle? = nil) {
            self.process = process
            self.output = output
            self.input = input
        }

        /// Writes `text` to its stdin (started with `input: true`).
        func write(_ text: String) throws {
            try input?.write(contentsOf: Data(text.utf8))
        }

        /// Closes its stdin: the end of its input.
        func closeInput() throws {
            try input?.close()
        }

        /// The next line of stdout, or nil at its end.
        func readLine() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return String(decoding: line, as: UTF8.self)
                }
                let chunk = output.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }

        /// Waits for the exit and returns the status.
        func wait() -> Int32 {
            process.waitUntilExit()
            return process.terminationStatus
        }

        func terminate() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Starts `bcstream` with `arguments` in `directory` (the checkout by default); its stdout is read with
    /// `readLine()`.
    /// With `input`, its stdin is a pipe written with `Running.write(_:)`; otherwise it is empty.
    static func start(_ arguments: [String], in directory: URL = repository, input: Bool = false) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = input ? Pipe() : nil
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        return Running(process: process, output: output.fileHandleForReading, input: stdin?.fileHandleForWriting)
    }

    /// Runs a test peer script with the `python3` on PATH (the one the README's test command installed
    /// `websockets` into).
    static func runPython(_ arguments: [String]) throws -> Result {
        try run(arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), prefix: ["python3"])
    }
}
