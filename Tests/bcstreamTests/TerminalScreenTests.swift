import Foundation
import Testing

/// What a person sees on a real terminal: `bcstream` runs inside tmux (a pseudo-terminal of a known size), and
/// the screen tmux holds is read back and judged line by line.
@Suite("On a terminal", .serialized, .timeLimit(.minutes(1)))
struct TerminalScreenTests {
    static var messageRow: Regex<(Substring, Substring)> { /^t=(\d+|\?) +[A-Za-z?]+ +\S/ }

    @Test("the demo reads cleanly: one message a row from column 0, never wrapped, the status never glued to one",
          arguments: [80, 100])
    func demoReadsCleanly(columns: Int) async throws {
        let terminal = try TmuxTerminal(command: [BCStreamProcess.executable.path, "demo"], columns: columns, rows: 60)
        defer { terminal.kill() }
        #expect(try await terminal.waitForExit(within: .seconds(40)) == 0)
        // What the command printed: the rows above tmux's "[exited 0]" (and its "Pane is dead" below that).
        let shown = try terminal.screen().prefix { !$0.hasPrefix("[exited ") }.filter { !$0.isEmpty }

        let messages = shown.filter { $0.firstMatch(of: Self.messageRow) != nil }
        #expect(messages.count == 20, "the demo's 20 messages, one row each from column 0:\n\(shown.joined(separator: "\n"))")
        // The summary's count list may go on below its first row, aligned under its first item.
        let summary = try #require(shown.firstIndex { $0.hasPrefix("20 messages: ") }, "the final counts")
        let listColumn = String(repeating: " ", count: "20 messages: ".count)
        for (index, row) in shown.enumerated() {
            #expect(row.count <= columns, "row \(index) is wider than the terminal: \(row)")
            // No row carries two things: a message row holds one message, and the status line
            // ("1/1 connected · …") never shares a row with a message or stays on screen.
            #expect(!row.contains("connected ·"), "the status line was left on screen or glued: \(row)")
            #expect(row.ranges(of: "t=").count <= 1 || row.hasPrefix("t=8 "), "two messages on one row: \(row)")
            if row.hasPrefix(" ") {
                // Nothing but the count list continues on a row of its own: no message is wrapped.
                #expect(index > summary && row.hasPrefix(listColumn) && !row.hasPrefix(listColumn + " "),
                        "a wrapped row: \(row)")
            } else if row.firstMatch(of: Self.messageRow) == nil {
                // stderr's notes: known words, whole rows.
                let note = /^(demo: |connected to |subscribed to |the live ended|\d+ messages: )/
                #expect(row.firstMatch(of: note) != nil, "a row that is neither a message nor a note: \(row)")
            }
        }
        #expect(shown[summary...].joined().contains("0 errors"), "the summary ends with the errors")
        // 100 columns hold every message of the demo whole; narrower, a message is cut ("…"), never wrapped.
        if columns >= 100 {
            #expect(!messages.contains { $0.hasSuffix("…") }, "a message cut at 100 columns:\n\(messages.joined(separator: "\n"))")
        } else {
            #expect(messages.contains { $0.hasSuffix("…") }, "at \(columns) columns the long gifts are cut")
        }
    }

    /// Several channels on one terminal: each message row and each connection note says which channel it is from,
    /// and the status line, drawn by whichever channel's task is due, never shares a row with a message.
    @Test("several channels: every row names its channel, and no status line is glued to a message")
    func severalChannelsNameTheirRows() async throws {
        let replay = try BCStreamProcess.start(["replay", "23", "1", "--interval", "0.05", "--keep-order"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        let keys = ["a:1", "b:2", "c:3", "d:4"]
        let terminal = try TmuxTerminal(
            command: [BCStreamProcess.executable.path, "listen", url, "--count", "40"] + keys.flatMap { ["--key", $0] },
            columns: 80, rows: 80)
        defer { terminal.kill() }
        #expect(try await terminal.waitForExit(within: .seconds(40)) == 0)
        let shown = try terminal.screen().prefix { !$0.hasPrefix("[exited ") }.filter { !$0.isEmpty }
        let messages = shown.filter { $0.firstMatch(of: /^\[[a-d]:[1-4]\] t=\d+\s/) != nil }
        #expect(messages.count == 40, "40 message rows, each naming its channel:\n\(shown.joined(separator: "\n"))")
        // Each connection note names its channel. (The pane's very first row is sometimes missing from tmux's
        // capture when the command writes before the pane settles, so three of the four notes are asked for.)
        let connected = shown.filter { $0.contains("connected to ") && !$0.contains("connected ·") }
        #expect(connected.count >= keys.count - 1, "\(shown.joined(separator: "\n"))")
        for row in connected {
            #expect(row.firstMatch(of: /^\[[a-d]:[1-4]\] connected to 127\.0\.0\.1:\d+$/) != nil, "unnamed: \(row)")
        }
        for row in shown {
            #expect(!row.contains("connected ·"), "the status line was left on screen or glued: \(row)")
            #expect(row.ranges(of: " t=").count <= 1, "two messages on one row: \(row)")
            #expect(row.count <= 80, "a row wider than the terminal: \(row)")
        }
    }

    @Test("a drop is told once, with the retry, not twice")
    func oneReportPerDrop() throws {
        let replay = try BCStreamProcess.start(["replay", "23", "--drop-after", "2", "--interval", "0", "--loop"])
        defer { replay.terminate() }
        let url = try #require(replay.readLine(), "replay prints its URL first")
        let listen = try BCStreamProcess.run(["listen", url, "--key", "k", "--count", "5"])
        #expect(listen.status == 0, "\(listen.stderr)")
        let notes = listen.stderr.split(separator: "\n").map(String.init)
        let drops = notes.filter { $0.contains("drop after 2") }
        let retries = notes.filter { $0.contains("reconnecting in") }
        #expect(retries.count == 2, "5 messages at 2 per connection: two drops\n\(listen.stderr)")
        #expect(drops == retries, "each drop is one line, the retry's\n\(listen.stderr)")
    }
}
