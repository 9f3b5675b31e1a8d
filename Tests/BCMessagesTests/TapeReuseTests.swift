import Foundation
import Testing

@testable import BCMessages

/// The fast engine writes each message's tape into the buffer the thread's last decode left, and scans it into the
/// document the last decode emptied: what one message leaves behind never shows in the next one's value, and a huge
/// message's buffer and tables are not held afterwards.
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

    /// Two decodes on one thread use one document: the first leaves it emptied as the thread's, the second is lent
    /// it and leaves it so again.
    @Test func theDocumentIsReusedAndLeftEmptied() throws {
        let fast = BCMessageDecoder(engine: .fast)
        _ = try fast.decode(Self.small)
        let state = DecodeThreadState.current.takeUnretainedValue()
        // Weak: a strong reference here would keep the document from being the decode's alone, and so reused.
        weak let first = state.peekDocument
        #expect(first?.isEmptied == true)
        _ = try fast.decode(Self.small)
        #expect(first != nil)
        #expect(state.peekDocument === first)
        #expect(state.peekDocument?.isEmptied == true)
    }

    /// A decode inside a decode on one thread (strict mode's check scans again) cannot share the thread's document,
    /// which is lent already: it gets one of its own, and the thread's is emptied once the outer decode is over.
    @Test func aDecodeInsideADecodeGetsADocumentOfItsOwn() throws {
        let json = Array(#"{"t":23,"online_viewer_num":1,"total_viewer_num":2}"#.utf8)
        try json.withUnsafeBufferPointer { bytes in
            let outer = try #require(TapeDocument.lend(scanning: bytes))
            let inner = try #require(TapeDocument.lend(scanning: bytes))
            #expect(outer.thread != nil && inner.thread == nil)
            #expect(outer.document.toOpaque() != inner.document.toOpaque())
            let (innerEntries, outerEntries) = (inner.document.takeUnretainedValue().entries,
                                                outer.document.takeUnretainedValue().entries)
            #expect(innerEntries.count == outerEntries.count)
            inner.giveBack()
            outer.giveBack()
        }
        let state = DecodeThreadState.current.takeUnretainedValue()
        #expect(state.peekDocument?.isEmptied == true)
    }

    /// Should anything still hold the thread's document when its decode is over, the thread neither empties it
    /// under the holder nor lends it again: it lets it go, and the next decode makes another.
    @Test func aDocumentStillHeldAfterItsDecodeIsLetGo() throws {
        let json = Array(#"{"t":23,"online_viewer_num":1,"total_viewer_num":2}"#.utf8)
        var held: TapeDocument?
        try json.withUnsafeBufferPointer { bytes in
            let lent = try #require(TapeDocument.lend(scanning: bytes))
            held = lent.document.takeUnretainedValue()
            lent.giveBack()
        }
        let state = DecodeThreadState.current.takeUnretainedValue()
        #expect(state.peekDocument == nil)
        #expect(held?.isEmptied == false)
        let fast = try BCMessageDecoder(engine: .fast).decode(Data(json))
        #expect(try fast == BCMessageDecoder(engine: .foundation).decode(Data(json)))
        #expect(state.peekDocument != nil && state.peekDocument !== held)
    }

    /// A message the direct path refuses (a key twice) is read through `init(from:)`, which builds member tables;
    /// with 5,000 keys, a hash index too. None of it is left in the spare document, and the messages after it
    /// decode as Foundation decodes them.
    @Test func aMessageThatBuildsTablesLeavesNoneBehind() throws {
        let keys = (0..<5_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let tabled = Data((#"{"t":23,"online_viewer_num":1,"online_viewer_num":2,"total_viewer_num":3,"# + keys + "}").utf8)
        let twice = Data(#"{"t":1,"u":"7","ac":"a","cm":"hi","cm":"again","lci":9}"#.utf8)
        let fast = BCMessageDecoder(engine: .fast)
        let foundation = BCMessageDecoder(engine: .foundation)
        for json in [tabled, Self.small, twice, tabled, twice, Self.small] {
            #expect(try fast.decode(json) == foundation.decode(json))
            let state = DecodeThreadState.current.takeUnretainedValue()
            #expect(try #require(state.peekDocument).isEmptied)
        }
    }
}
