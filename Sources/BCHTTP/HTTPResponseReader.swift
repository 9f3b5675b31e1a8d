import BCWebSocket
import Foundation

/// Reads one HTTP/1.1 answer from the bytes of a connection, as a pure state machine (bytes in, outcome out):
/// the status line and headers (at most `maxHeadSize`), then the body by `Content-Length`, chunked, or up to the
/// close, at most `maxBodySize` bytes (the server is not trusted). Interim 1xx answers are skipped. Work is
/// linear in the bytes given.
struct HTTPResponseReader {
    enum Outcome: Equatable {
        case needMore
        case complete(HTTPFetchResponse)
        case failed(HTTPFetchFailure)
    }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    static let maxHeadSize = 64 * 1024
    let maxBodySize: Int
    private var state = State.head
    /// Bytes received; those from `start` on are not consumed yet (a partial head or chunk line). The consumed
    /// front is dropped once per `receive`, so each byte is moved at most once.
    private var pending: [UInt8] = []
    private var start = 0
    /// Where the search for the end of the head or of a line goes on in `pending`.
    private var searched = 0
    private var status = 0
    private var body: [UInt8] = []

    init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    mutating func receive(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        pending.append(contentsOf: bytes)
        let outcome = advance()
        pending.removeFirst(start)
        searched = max(0, searched - start)
        start = 0
        return outcome
    }

    private var available: Int { pending.count - start }

    /// The connection ended: the answer is complete if its body runs to the close, truncated otherwise.
    mutating func end() -> Outcome {
        switch state {
        case .untilClose:
            state = .done
            return .complete(HTTPFetchResponse(status: status, body: body))
        case .done:
            return .complete(HTTPFetchResponse(status: status, body: body))
        default:
            return .failed(.truncated)
        }
    }

    private mutating func advance() -> Outcome {
        while true {
            switch state {
            case .head:
                guard let end = find([13, 10, 13, 10]) else {
                    if available > Self.maxHeadSize { return .failed(.other("the answer's header is larger than "
                        + "\(Self.maxHeadSize / 1024) KiB")) }
                    return .needMore
                }
                let head = String(decoding: pending[start..<start + end], as: UTF8.self)
                consume(end + 4)
                if let failure = readHead(head) { return .failed(failure) }
            case .fixed(let remaining):
                let count = min(remaining, available)
                if let failure = take(count) { return .failed(failure) }
                if remaining - count > 0 {
                    state = .fixed(remaining: remaining - count)
                    return .needMore
                }
                state = .done
            case .chunkSize:
                guard let end = find([13, 10]) else {
                    return available > 1024 ? .failed(.other("the answer's chunk header is malformed")) : .needMore
                }
                let line = String(decoding: pending[start..<start + end], as: UTF8.self)
                consume(end + 2)
                let digits = line.prefix { $0 != ";" }.trimmingCharacters(in: [" ", "\t"])
                guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16) else {
                    return .failed(.other("the answer's chunk header is malformed"))
                }
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, available)
                if let failure = take(count) { return .failed(failure) }
                if remaining - count > 0 {
                    state = .chunkData(remaining: remaining - count)
                    return .needMore
                }
                state = .chunkEnd
            case .chunkEnd:
                guard available >= 2 else { return .needMore }
                guard pending[start] == 13, pending[start + 1] == 10 else { return .failed(.other("the answer's chunks are malformed")) }
                consume(2)
                state = .chunkSize
            case .trailers:
                guard let end = find([13, 10]) else {
                    return available > Self.maxHeadSize ? .failed(.other("the answer's trailer is too large")) : .needMore
                }
                consume(end + 2)
                if end == 0 { state = .done }
            case .untilClose:
                if let failure = take(available) { return .failed(failure) }
                return .needMore
            case .done:
                return .complete(HTTPFetchResponse(status: status, body: body))
            }
        }
    }

    /// Reads the status line and headers; sets the body's state.
    private mutating func readHead(_ head: String) -> HTTPFetchFailure? {
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).makeIterator()
        let statusLine = lines.next() ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            return .other("the server did not answer in HTTP")
        }
        var length: Int?
        var chunked = false
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            if name == "content-length" {
                guard let parsed = Int(value), parsed >= 0 else { return .other("the answer's Content-Length is malformed") }
                length = parsed
            } else if name == "transfer-encoding" {
                chunked = value.lowercased().split(separator: ",").last?.trimmingCharacters(in: [" "]) == "chunked"
            }
        }
        if (100..<200).contains(code) {
            state = .head  // an interim answer: the real one follows
            return nil
        }
        status = code
        if code == 204 || code == 304 {
            state = .done
        } else if chunked {
            state = .chunkSize
        } else if let length {
            if length > maxBodySize { return .bodyTooLarge(limit: maxBodySize) }
            state = .fixed(remaining: length)
        } else {
            state = .untilClose
        }
        return nil
    }

    /// Moves `count` bytes from `pending` to the body, within the cap.
    private mutating func take(_ count: Int) -> HTTPFetchFailure? {
        if body.count + count > maxBodySize { return .bodyTooLarge(limit: maxBodySize) }
        body.append(contentsOf: pending[start..<start + count])
        consume(count)
        return nil
    }

    private mutating func consume(_ count: Int) {
        start += count
        searched = start
    }

    /// The offset of `pattern` from `start`, searching on from where the last search stopped.
    private mutating func find(_ pattern: [UInt8]) -> Int? {
        let last = pending.count - pattern.count
        var index = max(searched, start)
        while index <= last {
            if pending[index] == pattern[0], pending[index..<index + pattern.count].elementsEqual(pattern) {
                return index - start
            }
            index += 1
        }
        searched = max(start, index)
        return nil
    }
}
