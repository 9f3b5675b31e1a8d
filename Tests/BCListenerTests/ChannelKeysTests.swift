import BCListener
import BCWebSocket
import Foundation
import Testing

@Suite("Channel keys from --key and --keys-file")
struct ChannelKeysTests {
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a keys file: one key a line, blank lines and # comments skipped, CRLF and spaces trimmed, repeats once")
    func readsAKeysFile() throws {
        let path = try file("# lives of the evening\na:1\r\n\n  b:2  \na:1\n#c:3\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ChannelKeys.collect(keys: ["z:0", "a:1"], file: path).map(\.text) == ["z:0", "a:1", "b:2"])
    }

    /// The key goes into `SUB\t<key>`: a TAB or a line break in it would send the server another command.
    @Test("a key that would break the SUB line, or is too long, is refused with where it came from", arguments: [
        ("a:1\tSUB", "TAB"), ("a b", "space"), ("a\u{7}b", "U+0007"), (String(repeating: "k", count: 300), "at most 256"),
        ("k1\u{2028}SUB", "line break"), ("k1\u{1B}[2J", "U+001B"), ("k\u{202E}1", "U+202E"),
    ])
    func refusesHostileKeys(key: String, problem: String) throws {
        let path = try file("ok:1\n\(key)\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try ChannelKeys.collect(keys: [], file: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains(problem) && text.contains("line 2")
                && !text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" }
        }
        #expect { try ChannelKeys.collect(keys: [key], file: nil) } throws: { "\($0)".hasPrefix("--key: ") }
        #expect { try ChannelKeys.collect(keys: ["k1\nSUB\tvictim-key"], file: nil) } throws: {
            "\($0)".hasPrefix("--key: a key with a line break") && !"\($0)".contains("\n")
        }
    }

    @Test("a keys file that cannot be read, is not UTF-8 or is too large says so")
    func unreadableFiles() throws {
        #expect { try ChannelKeys.collect(keys: [], file: "/nonexistent/keys") } throws: { "\($0)".contains("cannot read") }
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: URL(fileURLWithPath: binary))
        defer { try? FileManager.default.removeItem(atPath: binary) }
        #expect { try ChannelKeys.collect(keys: [], file: binary) } throws: { "\($0)".contains("not UTF-8") }
    }

    @Test("connections are spread over loops of at most 500: the 501st opens the second loop")
    func poolSizes() async {
        let single = await WebSocketLoopPool.started(connections: 1, name: "t")
        #expect(single.loops.count == 1)
        let pool = await WebSocketLoopPool.started(connections: 1001, connectionsPerLoop: 500, name: "t")
        #expect(pool.loops.count == 3)
        #expect(pool.loop(for: 499) === pool.loops[0])
        #expect(pool.loop(for: 500) === pool.loops[1])
        #expect(pool.loop(for: 1000) === pool.loops[2])
        // A loop the caller has is the first; the pool makes only the rest, and shuts down only those.
        let first = WebSocketLoop(name: "t.first")
        let extended = await WebSocketLoopPool.started(connections: 600, connectionsPerLoop: 500, name: "t", first: first)
        #expect(extended.loops.count == 2 && extended.loop(for: 0) === first && extended.loop(for: 500) !== first)
        for pool in [single, pool, extended] { await pool.shutdown() }
        await first.shutdown()
    }
}
