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
    static let executable: URL = {
        var url = Bundle.main.bundleURL
        while url.path != "/" {
            let candidate = url.appendingPathComponent("bcstream")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "bcstream")
    }()

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String], stdin: String = "") throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repository
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
