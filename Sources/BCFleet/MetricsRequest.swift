/// What a scraper sent, read as bytes arrive: the request ends at its blank line (a GET has no body), and only its
/// request line is looked at. Pure: the metrics server's IO loop feeds it what it read.
enum MetricsRequest: Equatable {
    /// The blank line has not arrived yet and the request is within the cap.
    case incomplete
    /// More than the cap arrived before the blank line: the connection is closed unanswered.
    case tooLarge
    /// The request line is not `METHOD SP TARGET SP HTTP/x.y`.
    case malformed
    /// A whole request: its method and its target's path (the query cut off).
    case complete(method: String, path: String)

    /// Reads `bytes`, everything received so far on one connection, allowed at most `limit` bytes; the blank
    /// line is looked for from `newFrom` (where the bytes of the latest read begin), so that a request dripped a
    /// byte at a time costs work linear in its length.
    static func read(_ bytes: [UInt8], newFrom: Int = 0, limit: Int) -> MetricsRequest {
        guard let end = headEnd(bytes, from: newFrom) else { return bytes.count > limit ? .tooLarge : .incomplete }
        guard end <= limit else { return .tooLarge }
        let line = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "\r")) ?? end)]
        let words = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == 3, !words[0].isEmpty, words[0].allSatisfy(isToken), words[1].first == UInt8(ascii: "/"),
              words[2].starts(with: Array("HTTP/1.".utf8))
        else { return .malformed }
        let target = words[1]
        let path = target[..<(target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
        return .complete(method: String(decoding: words[0], as: UTF8.self), path: String(decoding: path, as: UTF8.self))
    }

    /// The index just past the request's blank line (`\r\n\r\n`), if it has arrived.
    private static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in max(3, start)..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13
            && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// A method is upper-case letters.
    private static func isToken(_ byte: UInt8) -> Bool { (65...90).contains(byte) }
}
