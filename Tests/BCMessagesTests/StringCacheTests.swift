import Foundation
import Testing

@testable import BCMessages

/// The fast engine's cache of recent Strings: a hit is the String the bytes make, whatever else was looked up,
/// and what cannot be read is never kept.
struct StringCacheTests {
    private static func lookUp(_ cache: StringCache, _ text: String, made: inout Int) -> String? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            cache.string(for: UnsafeBufferPointer(buffer)) {
                made += 1
                return String(decoding: buffer, as: UTF8.self)
            }
        }
    }

    @Test func aStringSeenAgainIsTakenFromTheCacheAndIsEqual() {
        let cache = StringCache()
        var made = 0
        let text = "https:\\/\\/cdn.example.com\\/gift\\/2\\/small.png"
        #expect(Self.lookUp(cache, text, made: &made) == text)
        #expect(Self.lookUp(cache, text, made: &made) == text)
        #expect(made == 1)
        #expect(cache.hits == 1 && cache.lookups == 2)
    }

    /// Far more distinct strings than slots, many sharing a slot: each lookup still gives its own String, and the
    /// cache holds no more than its slots (it never grows).
    @Test func manyDistinctStringsEachGiveTheirOwnValue() {
        let cache = StringCache()
        var made = 0
        let texts = (0..<(StringCache.slots * 4)).map { "viewer name number \($0) 🌸" }
        for _ in 0..<2 {
            for text in texts { #expect(Self.lookUp(cache, text, made: &made) == text) }
        }
        #expect(made > texts.count)  // evicted ones were made again
        #expect(cache.lookups == 2 * texts.count)
    }

    /// A string that cannot be read (nil) is not kept: the next lookup reads it again, and fails again.
    @Test func anUnreadableStringIsNeverKept() {
        let cache = StringCache()
        var attempts = 0
        var bytes = Array("an unreadable string of some length".utf8)
        for _ in 0..<2 {
            let result = bytes.withUnsafeMutableBufferPointer { buffer in
                cache.string(for: UnsafeBufferPointer(buffer)) { () -> String? in
                    attempts += 1
                    return nil
                }
            }
            #expect(result == nil)
        }
        #expect(attempts == 2 && cache.hits == 0)
    }

    /// Through the decoder: a message decoded twice gives equal values, the second time from the cache, on this
    /// thread's cache.
    @Test func decodingTheSameMessageTwiceGivesEqualValues() throws {
        let json = Data(#"{"t":1,"lci":"9","u":"1","ac":"\u307f\u304b\u3093\uD83C\uDF4A","cm":"\u521d\u898b\u3067\u3059\u3088\u308d\u3057\u304f","iurl":"https:\/\/cdn.example.com\/profile\/1_m.jpeg"}"#.utf8)
        let decoder = BCMessageDecoder()
        let first = try decoder.decode(json)
        let hitsBefore = DecodeThreadState.current.takeUnretainedValue().strings.hits  // synchronous: still this thread's
        let second = try decoder.decode(json)
        #expect(first == second)
        #expect(DecodeThreadState.current.takeUnretainedValue().strings.hits >= hitsBefore + 3)  // ac, cm and iurl
        guard case .comment(let comment) = second else {
            Issue.record("not a comment: \(second)")
            return
        }
        #expect(comment.user.name == "みかん🍊")
        #expect(comment.user.profileImageURL == "https://cdn.example.com/profile/1_m.jpeg")
    }
}
