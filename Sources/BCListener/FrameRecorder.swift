import Foundation
import Synchronization

/// Appends every received frame to an NDJSON file before it is decoded, one `RecordedFrame` a line, written
/// through to the file per line so that a crash loses nothing that was received.
public final class FrameRecorder: Sendable {
    /// The open file. A `Mutex` makes lines from several listeners interleave whole, never mixed.
    private let handle: Mutex<FileHandle>
    /// Where the recording goes.
    public let path: String

    /// Opens `path` for appending, creating it when absent: a recording can be resumed across runs.
    public init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw RecorderError(path: path, reason: "cannot create the file")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw RecorderError(path: path, reason: "cannot open the file for writing")
        }
        handle.seekToEndOfFile()
        self.handle = Mutex(handle)
        self.path = path
    }

    /// Writes one frame as a line; the write reaches the file before this returns.
    public func record(_ frame: RecordedFrame) throws {
        let line = Data((try frame.line() + "\n").utf8)
        try handle.withLock { handle in
            try handle.write(contentsOf: line)
        }
    }

    deinit {
        handle.withLock { try? $0.close() }
    }

    /// Why a recording file could not be created, opened or written.
    public struct RecorderError: Error, CustomStringConvertible {
        /// The recording file.
        public let path: String
        /// What failed, in a person's words: `cannot create the file`, `cannot open the file for writing`…
        public let reason: String
        public var description: String { "cannot record to \(path): \(reason)" }
    }
}
