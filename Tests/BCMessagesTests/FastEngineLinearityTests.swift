@testable import BCMessages
import Foundation
import Testing

/// Long strings, long arrays and objects with many keys decode in work proportional to their size: doubling
/// the size at most about doubles the work. Work is counted (bytes scanned, members hashed and compared, bytes
/// read out of strings), never timed.
@Suite struct FastEngineLinearityTests {
    static func work(_ json: String) -> Int {
        let data = Data(json.utf8)
        return data.count + FastEngine.work(decoding: data)
    }

    /// work(2n) / work(n) for messages built by `message(n)`, which must decode (so that the whole path runs).
    static func growth(_ message: (Int) -> String, from size: Int = 2_000) throws -> Double {
        #expect(throws: Never.self) { try BCMessageDecoder().decode(message(size)) }
        #expect(throws: Never.self) { try BCMessageDecoder().decode(message(size * 2)) }
        return Double(work(message(size * 2))) / Double(work(message(size)))
    }

    @Test func longStrings() throws {
        let plain = try Self.growth { n in
            #"{"t":1,"u":"1","ac":"Taro","cm":"\#(String(repeating: "あいう", count: n))","lci":"1"}"#
        }
        let escaped = try Self.growth { n in
            #"{"t":1,"u":"1","ac":"Taro","cm":"\#(String(repeating: #"\u3042\/\n"#, count: n))","lci":"1"}"#
        }
        #expect(plain < 2.2)
        #expect(escaped < 2.2)
    }

    @Test func longArrays() throws {
        let nearby = #"{"u":"2","n":"Hana","iu":"","biu":"","liu":"","r":3,"gp":"100"}"#
        let rankings = try Self.growth({ n in
            let ranking = #"{"ei":1,"r":"2","nrc":[\#(nearby),\#(nearby)],"ari":["a","b"]}"#
            return #"{"t":35,"u":"1","ac":"Taro","gift_id":"2","gift_title":"Heart","coins":"1","count":1,"# +
                #""rankings":[\#(Array(repeating: ranking, count: n).joined(separator: ","))]}"#
        }, from: 500)
        let users = try Self.growth { n in
            let user = #"{"u":1,"ac":"Hana","iurl":"","burl":""}"#
            return #"{"t":38,"users":[\#(Array(repeating: user, count: n).joined(separator: ","))]}"#
        }
        let ids = try Self.growth { n in
            #"{"t":93,"live_game_id":"12","user_ids":[\#((0..<n).map { "\"\($0)\"" }.joined(separator: ","))]}"#
        }
        #expect(rankings < 2.2)
        #expect(users < 2.2)
        #expect(ids < 2.2)
    }

    @Test func objectsWithManyKeys() throws {
        // An unknown kind is kept whole: every key is read.
        let unknown = try Self.growth { n in
            #"{"t":999,\#((0..<n).map { #""k\#($0)":\#($0)"# }.joined(separator: ","))}"#
        }
        // A known kind with many keys it does not model: each modelled key is looked up among all of them.
        let extras = try Self.growth { n in
            let extras = (0..<n).map { #""extra_\#($0)":"\#($0)""# }.joined(separator: ",")
            return #"{"t":1,\#(extras),"u":"1","ac":"a","cm":"x","lci":"1"}"#
        }
        // A dictionary of forcible values (the avatar's wipe cameras), looked up key by key.
        let dictionary = try Self.growth { n in
            let cameras = (0..<n).map { #""\#($0)":"orth,1.41,0.45""# }.joined(separator: ",")
            return #"{"t":34,"avatar":{"wipe_cameras":{\#(cameras)}}}"#
        }
        #expect(unknown < 2.2)
        #expect(extras < 2.2)
        #expect(dictionary < 2.2)
    }

    @Test func errorsInLongMessagesStayLinear() throws {
        // The error path reads the whole message again and walks to the failing value once.
        let growth = try Self.growth { n in
            #"{"t":999,\#((0..<n).map { #""k\#($0)":\#($0)"# }.joined(separator: ","))}"#
        }
        #expect(growth < 2.2)
        let message = { (n: Int) in
            let users = Array(repeating: #"{"u":1,"iurl":"","burl":""}"#, count: n).joined(separator: ",")
            return #"{"t":38,"users":[\#(users),{"u":[]}]}"#
        }
        #expect(Self.failingGrowth(message) < 2.2)
        // A dictionary with a bad value goes through Dictionary's own init(from:), which looks up every key.
        let cameras = { (n: Int) in
            let cameras = (0..<n).map { #""\#($0)":"orth""# }.joined(separator: ",")
            return #"{"t":34,"avatar":{"wipe_cameras":{\#(cameras),"x":[]}}}"#
        }
        #expect(Self.failingGrowth(cameras) < 2.2)
    }

    static func failingGrowth(_ message: (Int) -> String) -> Double {
        let small = Data(message(2_000).utf8), large = Data(message(4_000).utf8)
        #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(small) }
        #expect(throws: BCDecodingError.self) { try BCMessageDecoder().decode(large) }
        let largeWork = large.count + FastEngine.work(decoding: large)
        return Double(largeWork) / Double(small.count + FastEngine.work(decoding: small))
    }
}
