import Foundation
import Testing

@testable import BCMessages

/// The fast engine writes each message's tape into the buffer the thread's last decode left: what one message
/// leaves behind never shows in the next one's value, and a huge message's buffer is not held afterwards.
struct TapeReuseTests {
    private static let small = Data(#"{"t":23,"online_viewer_num":"12","total_viewer_num":340}"#.utf8)

    /// A large message after a small one, a small one after it, a malformed one between them: each decodes as the
    /// Foundation engine decodes it, whatever the spare buffer held before.
    @Test func messagesOfEverySizeInTurnDecodeAsFoundationDecodesThem() throws {
        let wide = Data(("{\"t\":999," + (0..<3_000).map { "\"k\($0)\":[\($0),\"v\($0)\"]" }.joined(separator: ",")
                         + "}").utf8)
        let malformed = Data(#"{"t":1,"u":"#.utf8)
        let fast = BCMessageDecoder(engine: .fast)
        let foundation = BCMessageDecoder(engine: .foundation)
        for json in [Self.small, wide, Self.small, malformed, wide, Self.small] {
            let expected = Result { () throws(BCDecodingError) in try foundation.decode(json) }
            let got = Result { () throws(BCDecodingError) in try fast.decode(json) }
            switch (expected, got) {
            case (.success(let left), .success(let right)): #expect(left == right)
            case (.failure(let left), .failure(let right)): #expect(left.description == right.description)
            default: Issue.record("the engines disagree on \(String(decoding: json.prefix(40), as: UTF8.self))…")
            }
        }
    }

    /// A message of 40,000 values needs a tape far past the spare's limit: it is freed, and what the thread keeps
    /// stays within `largestSpare` entries.
    @Test func aHugeMessagesTapeIsNotKept() throws {
        let huge = Data(("{\"t\":999,\"a\":[" + (0..<40_000).map(String.init).joined(separator: ",") + "]}").utf8)
        _ = try BCMessageDecoder(engine: .fast).decode(huge)
        _ = try BCMessageDecoder(engine: .fast).decode(Self.small)  // synchronous: the same thread throughout
        let state = DecodeThreadState.current.takeUnretainedValue()
        #expect(state.spareEntries > 0)
        #expect(state.spareEntries <= DecodeThreadState.largestSpare)
    }
}
