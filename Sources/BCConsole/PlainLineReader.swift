import Foundation

/// Lines read as the terminal's own line discipline gives them (canonical mode: it echoes and handles
/// Backspace), and lines said written to stderr as they come. No prompt text, no escape sequence: what stderr
/// receives is the lines, whatever it is (a file, a pipe, a dumb terminal).
public final class PlainLineReader: PromptConsole {
    public let lines: AsyncStream<String>
    public let keys = "Ctrl-D quits."

    /// Starts reading stdin, on a thread of its own.
    public init() {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        // A blocking read, off the cooperative pool. It stays blocked after `stop()` until the process ends: stdin
        // belongs to no one else by then.
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
    }

    public func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public func stop() async {}
}
