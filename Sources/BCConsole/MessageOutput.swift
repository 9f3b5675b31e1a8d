import Foundation
import Synchronization

/// Where `listen` and `demo` put message lines: stdout, buffered when it is a pipe or a file and written within
/// `flushDelay` of a line (`flushSoon()`), so a reader downstream (`| jq`, a test) sees each message within a few
/// milliseconds, and many channels at a live's pace cost one `write` per few milliseconds rather than one per
/// message (one a message was nearly half of `listen`'s system calls at 5,000 messages/s). On a terminal every line
/// goes out at once, cut to the width (`writeMessageLine`).
///
/// Shared by every channel's task: a line is appended whole under the lock, so lines never interleave.
final class MessageOutput: Sendable {
    /// Past this many bytes the buffer is written out whatever the input does.
    static let bufferLimit = 64 * 1024

    /// Whether a write to stdout returns without waiting for a reader: a terminal, a regular file or a character
    /// device such as /dev/null. A pipe, a FIFO or a socket can be filled by a slow reader and hold the writer up.
    static let neverHoldsUp: Bool = {
        if isatty(STDOUT_FILENO) == 1 { return true }
        var status = stat()
        guard fstat(STDOUT_FILENO, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFREG || type == S_IFCHR
    }()

    /// How long a line may wait in the buffer for the lines after it.
    static let flushDelay = DispatchTimeInterval.milliseconds(5)

    private let toTerminal = isatty(STDOUT_FILENO) == 1
    private let buffer = Mutex<[UInt8]>([])
    /// A flush is scheduled (`flushSoon()`).
    private let flushPending = Atomic<Bool>(false)

    init() {
        buffer.withLock { $0.reserveCapacity(Self.bufferLimit + 4096) }
    }

    /// Appends one message line (no newline); on a terminal it is written at once.
    func append(_ line: String) {
        append(.text(line))
    }

    /// Appends one message line (no newline), text or UTF-8 bytes; on a terminal it is written at once.
    func append(_ line: MessageLine) {
        if toTerminal {
            writeMessageLine(line.text)
            return
        }
        buffer.withLock { bytes in
            switch line {
            case .text(let text): bytes.append(contentsOf: text.utf8)
            case .utf8(let utf8): bytes.append(contentsOf: utf8)
            }
            bytes.append(UInt8(ascii: "\n"))
            if bytes.count >= Self.bufferLimit { Self.write(&bytes) }
        }
    }

    /// Appends one message line (no newline) of UTF-8 bytes read in place; on a terminal it is written at once.
    func append(utf8 line: UnsafeBufferPointer<UInt8>) {
        if toTerminal {
            writeMessageLine(String(decoding: line, as: UTF8.self))
            return
        }
        buffer.withLock { bytes in
            bytes.append(contentsOf: line)
            bytes.append(UInt8(ascii: "\n"))
            if bytes.count >= Self.bufferLimit { Self.write(&bytes) }
        }
    }

    /// Writes out what is buffered within `flushDelay`: one write for every line appended meanwhile.
    func flushSoon() {
        if toTerminal { return }
        guard !flushPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.flushDelay) { [self] in
            flushPending.store(false, ordering: .releasing)
            flush()
        }
    }

    /// Writes out what is buffered now: a note is about to go to stderr, or the session ends.
    func flush() {
        buffer.withLock { bytes in
            if !bytes.isEmpty { Self.write(&bytes) }
        }
    }

    /// Writes `bytes` whole to stdout (a pipe may take it in parts), then empties it, keeping its capacity.
    private static func write(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break  // stdout is gone (EPIPE with SIGPIPE ignored, a closed descriptor): nothing to keep
                }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// One line for stdout: text, or the UTF-8 bytes of an NDJSON line (which a pipe takes as they are, without
/// making a `String` of them first).
enum MessageLine: Sendable {
    case text(String)
    case utf8([UInt8])

    var text: String {
        switch self {
        case .text(let text): text
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}
