import ArgumentParser
import BCMessages
import BCReplay
import Foundation

/// The messages `bcstream-bench` decodes: the fixture mix, a generated corpus in the captured wire shapes, or a
/// file of one message per line.
struct BenchCorpus {
    /// What the corpus is, for the report: "fixtures (147 files of Tests/Payloads)".
    var name: String
    /// One message each, exactly the bytes a decoder is given.
    var messages: [Data]

    var byteCount: Int { messages.reduce(0) { $0 + $1.count } }

    /// Writes the messages one a line (a message never holds a raw line break: JSON escapes them in strings).
    func write(toPath path: String) throws {
        var text = Data()
        for message in messages {
            text.append(message)
            text.append(UInt8(ascii: "\n"))
        }
        do {
            try text.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError(TerminalText.escaped("cannot write \(path): \(error.localizedDescription)"))
        }
    }

    /// Every `*.json` directly under `directory` (the fixtures: one message of every known kind, and the wire's
    /// quirks), in name order.
    static func fixtures(in directory: String) throws -> BenchCorpus {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") }.sorted()
        let messages = try names.map { try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent($0)) }
        return BenchCorpus(name: "fixtures (\(messages.count) files of \(directory))", messages: messages)
    }

    /// The messages of `path` read as `bcstream decode` reads them (`DecodeInput`): bare JSON lines, bcsvr
    /// `MSG<TAB>key<TAB>{…}` lines by their JSON, recorded frames by the messages they hold. A file ending in
    /// `.json` is one message, as in Tests/Payloads.
    static func lines(of path: String) throws -> BenchCorpus {
        if path.hasSuffix(".json") {
            return BenchCorpus(name: path, messages: [try Data(contentsOf: URL(fileURLWithPath: path))])
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var messages: [Data] = []
        let decoder = JSONDecoder()
        for line in text.split(separator: "\n") {
            for case .message(let json, _) in DecodeInput.detect(String(line), decoder: decoder) {
                messages.append(Data(json.utf8))
            }
        }
        return BenchCorpus(name: "\(path) (\(messages.count) messages)", messages: messages)
    }

    /// Messages in the shapes captured on the wire (captured from the service: a comment whose `lci` is a
    /// string, a gift whose numbers are strings and whose `slot_id` is a number; raw UTF-8, unescaped slashes),
    /// with joins and viewer counts as the fixtures show them, and some gifts carrying event rankings (nested
    /// arrays of objects, as `35-gift-with-rankings.json`). About 500 bytes a message on average, mostly strings.
    /// The same `count` and `seed` give the same bytes, so the README's figures can be reproduced.
    static func capturedStyle(count: Int, seed: UInt64 = 0x5EED_BC57) -> BenchCorpus {
        var generator = CapturedStyleGenerator(seed: seed)
        let messages = (0..<count).map { _ in Data(generator.next().utf8) }
        return BenchCorpus(name: "captured-style (\(count) generated messages, seed \(seed))", messages: messages)
    }
}

/// Writes messages in the captured shapes with varied names, texts, ids and counts.
private struct CapturedStyleGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let names = ["さくら🌸", "ねこまる", "Taro", "みかん🍊", "ほし⭐️", "Hana", "ゆうき", "ケン", "りんご🍎", "moka_cafe",
                        "しろくま🐻‍❄️", "あおい", "Jiro", "ぴよこ🐤", "なな", "レオ"]
    static let comments = ["どこですか？", "こんばんは〜", "初見です！よろしくお願いします", "888888", "ナイス！！",
                           "それな", "今日も配信ありがとう🙏", "w", "え、すごい", "BGMなんですか？", "がんばれ〜！",
                           "おつかれさまでした", "草", "かわいい💕", "次のゲームは何をしますか？"]
    static let gifts = [("2", "小さなハート", "1"), ("10", "花束", "300"), ("5", "桜🌸", "10"), ("30", "花火", "100"),
                        ("120", "エモモダンス", "500"), ("1", "小さな星", "1")]
    static let events = ["春の桜イベント", "ゲーム大会", "歌枠フェス", "新人応援キャンペーン"]

    mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }

    mutating func next() -> String {
        switch int(0...99) {
        case 0..<38: comment()
        case 38..<70: gift(rankings: false)
        case 70..<80: gift(rankings: true)
        case 80..<90: join()
        default: viewerCount()
        }
    }

    mutating func userID() -> String { String(int(100_000_000...199_999_999)) }

    mutating func profileURL(_ user: String) -> String {
        int(0...2) == 0 ? "" : "https://cdn.mirrativ.com/mirrorman-prod/image/profile_image/\(user)_m.jpeg?\(int(1_500_000_000...1_700_000_000))"
    }

    mutating func comment() -> String {
        let name = pick(Self.names), text = pick(Self.comments), user = userID()
        let iurl = profileURL(user)
        return #"{"speech":"\#(name) \#(text)","d":1,"ac":"\#(name)","burl":"","iurl":"\#(iurl)","cm":"\#(text)","# +
            #""created_at":\#(int(1_540_000_000...1_740_000_000)),"u":"\#(user)","is_moderator":\#(int(0...9) == 0 ? 1 : 0),"# +
            #""lci":"\#(int(1_000_000_000...1_999_999_999))","t":1}"#
    }

    mutating func gift(rankings: Bool) -> String {
        let name = pick(Self.names), user = userID(), (id, title, coins) = pick(Self.gifts)
        let count = pick([1, 1, 1, 3, 8, 10])
        let badge = int(0...3) == 0
            ? "https://cdn.mirrativ.com/assets/img/continuous_streamer/ic_badge_master_holiday_L.ja.png?v1" : ""
        var json = #"{"avatar_body_image_url":"","gift_title":"\#(title)","speech":"\#(name)が\#(title)を贈りました","# +
            #""should_play_animation":1,"gift_type":"0","burl":"\#(badge)","coins":"\#(coins)","# +
            #""gift_small_image_url":"https://cdn.mirrativ.com/mirrorman-prod/assets/gift/item/\#(id)/small.png?v=207","# +
            #""u":"\#(user)","nameplate_enabled":"1","is_moderator":0,"t":35,"count":"\#(count)","collab_streamer_ac":"","# +
            #""ac":"\#(name)","total_gift_coins":"\#(int(1...99_999))","iurl":"\#(profileURL(user))","# +
            #""live_sent_gift_id":"\#(int(360_000_000...369_999_999))","gift_id":"\#(id)","pause_duration":"0","slot_id":0,"# +
            #""gift_large_image_url":"https://cdn.mirrativ.com/mirrorman-prod/assets/gift/item/\#(id)/large.png?v=207""#
        if rankings {
            json += #","rankings":[\#((0..<int(1...2)).map { _ in ranking() }.joined(separator: ","))]"#
        }
        return json + "}"
    }

    mutating func ranking() -> String {
        let event = int(500...599), rank = int(1...50)
        func nearby(_ generator: inout CapturedStyleGenerator, count: Int) -> String {
            (0..<count).map { index in
                let user = generator.userID()
                return #"{"u":"\#(user)","n":"\#(generator.pick(Self.names))","iu":"\#(generator.profileURL(user))","# +
                    #""biu":"","liu":"","r":\#(rank + index),"gp":\#(generator.int(1_000...200_000))}"#
            }.joined(separator: ",")
        }
        return #"{"ei":\#(event),"et":"\#(pick(Self.events))","eiu":"https://cdn.example.com/assets/event/\#(event)/icon.png","# +
            #""iae":false,"is_focus":true,"nt":"\#(int(1_711_000_000...1_719_999_999))123456789","r":"\#(rank)","# +
            #""rt":"\#(rank)位","re":0,"rp":\#(int(1_000...99_999)),"tp":"\#(int(1_000...99_999))","car":\#(rank),"# +
            #""cbr":\#(rank + 1),"cg":"A","sar":"3","sbr":"5","sg":"S","ibu":0,"# +
            #""ari":["https://cdn.example.com/assets/event/\#(event)/reward_1.png"],"# +
            #""nrc":[\#(nearby(&self, count: 2))],"nrs":[\#(nearby(&self, count: int(0...2)))]}"#
    }

    mutating func join() -> String {
        let name = pick(Self.names), user = userID()
        return #"{"online_viewer_num":\#(int(1...5_000)),"speech":"\#(name)が入室しました","d":1,"ac":"\#(name)","burl":"","# +
            #""iurl":"\#(profileURL(user))","created_at":\#(int(1_540_000_000...1_740_000_000)),"u":"\#(user)","# +
            #""is_moderator":0,"lci":0,"t":3}"#
    }

    mutating func viewerCount() -> String {
        let online = int(1...5_000)
        return #"{"t":23,"online_viewer_num":\#(online),"total_viewer_num":\#(online + int(0...20_000))}"#
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the corpus must not depend on the
/// platform's random source.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
