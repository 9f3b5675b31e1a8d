import BCConsole
import BCMessages
import Foundation
import Logging

/// The fleet's log as a person reads it on stderr: `nats: <message>`, one line each, the words only (the metadata
/// is for other handlers), escaped and bounded (`reportLine`), since messages quote NATS's errors and queued
/// requests. On a terminal the line first clears the status line it may share.
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(level: Logger.Level) {
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Self.write(event.message.description)
    }

    /// Writes `text` as one `nats:` line on stderr.
    static func write(_ text: String) {
        let clear = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : ""
        FileHandle.standardError.write(Data((clear + reportLine("nats: \(text)") + "\n").utf8))
    }
}
