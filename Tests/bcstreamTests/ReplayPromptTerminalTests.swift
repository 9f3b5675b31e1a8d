import Foundation
import TestSupport
import Testing

/// `bcstream replay`'s prompt on a real terminal, as a person sees it: the replay runs in a tmux pane, keys are
/// typed with `send-keys`, and the screen is read with `capture-pane` (what tmux, a terminal emulator, shows
/// after interpreting every escape sequence). A client subscribing meanwhile makes the server log lines while a
/// line is half typed.
@Suite(.timeLimit(.minutes(1))) struct ReplayPromptTerminalTests {
    /// One fixture, so that a subscriber's channel has played everything after three log lines.
    static let source = "Tests/Payloads/8-live-ended-bare.json"

    /// Log lines arrive while `35-gift-sm` is typed: they appear above, each on a line of its own, and the prompt
    /// line below holds exactly what was typed, the cursor after it. Then Tab completes, Enter pushes (the line
    /// stays on the screen, the answer below it), Up recalls it, Ctrl-U clears it, and Ctrl-D ends the replay with
    /// the prompt erased.
    @Test func logLinesGoAboveTheLineBeingTypedWhichStaysIntact() async throws {
        let terminal = try TmuxTerminal(command: [BCStreamProcess.executable.path, "replay", Self.source])
        defer { terminal.kill() }
        var screen = try await terminal.waitUntil("the prompt") { $0.last == "replay>" }
        let url = try #require(screen.first { $0.hasPrefix("ws://") }, "the URL comes first: \(screen)")

        try terminal.type("35-gift-sm")
        _ = try await terminal.waitUntil("the typed text") { $0.last == "replay> 35-gift-sm" }

        let client = try PeerProcess(executable: "/usr/bin/env",
                                     arguments: ["python3", "-u", PeerScript.directory + "/bcsvr_client.py", url, "viewer:key"],
                                     name: "bcsvr_client.py")
        defer { client.stop() }
        screen = try await terminal.waitUntil("the subscription's log lines") {
            $0.contains("replay: played everything on viewer:key")
        }
        #expect(Array(screen.suffix(4)) == [
            "replay: client#1 subscribed to viewer:key",
            "replay: sent 8-live-ended-bare on viewer:key to 1 subscriber",
            "replay: played everything on viewer:key",
            "replay> 35-gift-sm",
        ], "each log line on its own line above, the typed text intact on the prompt line: \(screen)")
        #expect(try terminal.cursor() == TmuxTerminal.Cursor(x: 18, y: screen.count - 1), "the cursor after the typed text")

        try terminal.press("Tab")
        _ = try await terminal.waitUntil("Tab to complete the fixture name") {
            $0.last == "replay> 35-gift-small-heart-captured-shape"
        }

        try terminal.press("Enter")
        screen = try await terminal.waitUntil("the push") { $0.last == "replay>" && $0.contains { $0.hasPrefix("pushed ") } }
        let entered = try #require(screen.lastIndex(of: "replay> 35-gift-small-heart-captured-shape"),
                                   "the entered line stays on the screen: \(screen)")
        #expect(screen[(entered + 1)...].contains("pushed 35-gift-small-heart-captured-shape to 1 subscriber"),
                "the answer below it: \(screen)")
        _ = try await client.reported(#""MSG\tviewer:key\t{"#, times: 2, within: .seconds(10))

        try terminal.press("Up")
        _ = try await terminal.waitUntil("Up to recall the line") { $0.last == "replay> 35-gift-small-heart-captured-shape" }
        try terminal.press("C-u")
        _ = try await terminal.waitUntil("Ctrl-U to clear the line") { $0.last == "replay>" }

        try terminal.press("C-d")
        let status = try await terminal.waitForExit()
        #expect(status == 0)
        screen = try terminal.screen()
        #expect(!screen.contains { $0.hasPrefix("replay>") && $0 != "replay> 35-gift-small-heart-captured-shape" },
                "Ctrl-D erases the prompt: \(screen)")
        let exited = try #require(screen.lastIndex(of: "[exited 0]"), "\(screen)")
        #expect(screen[exited - 1] == "replay: client#1 left viewer:key", "the goodbye, on a line of its own: \(screen)")
    }

    /// The first words, on a 60-column terminal: the help (some 170 columns) and the log's long lines are broken
    /// between words, each row within the width, and say everything they say on one line.
    @Test func theHelpIsBrokenBetweenWordsOnANarrowTerminal() async throws {
        let terminal = try TmuxTerminal(command: [BCStreamProcess.executable.path, "replay", Self.source], columns: 60)
        defer { terminal.kill() }
        let screen = try await terminal.waitUntil("the prompt") { $0.last == "replay>" }
        let first = try #require(screen.firstIndex { $0.hasPrefix("Type a fixture name") }, "the help: \(screen)")
        let last = try #require(screen.firstIndex { $0.hasSuffix("Ctrl-D quits.") }, "the end of the help: \(screen)")
        let rows = Array(screen[first...last])
        #expect(rows.count >= 3 && rows.allSatisfy { $0.count < 60 }, "rows within the width: \(rows)")
        let words = rows.joined(separator: " ").split(separator: " ")
        #expect(words.contains("subscriber;") && words.contains("completes.") && words.contains("Ctrl-U"),
                "no word cut in two: \(rows)")
        // A log line too: broken between words, the rest indented under its text.
        let serving = try #require(screen.firstIndex { $0.hasPrefix("replay: serving 1 message on ws://") }, "\(screen)")
        #expect(screen[serving].count < 60 && screen[serving + 1].hasPrefix("        ")
                && screen[serving + 1].hasSuffix("<any key>"), "\(screen[serving...])")
        try terminal.press("C-d")
        #expect(try await terminal.waitForExit() == 0)
    }

    /// On a narrow terminal a long typed line wraps over two rows, and the cursor is moved back to the first row.
    /// A log line then arrives: both rows are drawn again whole below it, and the cursor is where it was.
    @Test func aWrappedLineIsRedrawnWholeWithTheCursorWhereItWas() async throws {
        let terminal = try TmuxTerminal(command: [BCStreamProcess.executable.path, "replay", Self.source], columns: 40)
        defer { terminal.kill() }
        let screen = try await terminal.waitUntil("the prompt") { $0.last == "replay>" }
        let url = try #require(screen.first { $0.hasPrefix("ws://") }, "the URL comes first: \(screen)")

        let typed = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  // 8 + 62 columns: two rows
        try terminal.type(typed)
        let rows = ["replay> " + typed.prefix(32), String(typed.dropFirst(32))]
        _ = try await terminal.waitUntil("the typed text over two rows") { Array($0.suffix(2)) == rows }
        for _ in 0..<40 { try terminal.press("Left") }  // to column 8 + 22 of the first row
        _ = try await terminal.waitUntil("the cursor on the first row") { _ in
            (try? terminal.cursor().x) == 30
        }

        let client = try PeerProcess(executable: "/usr/bin/env",
                                     arguments: ["python3", "-u", PeerScript.directory + "/bcsvr_client.py", url, "k"],
                                     name: "bcsvr_client.py")
        defer { client.stop() }
        let after = try await terminal.waitUntil("the subscription's log lines") {
            $0.contains("replay: played everything on k")
        }
        #expect(Array(after.suffix(3)) == ["replay: played everything on k"] + rows,
                "the log line above, the typed line whole below it: \(after)")
        #expect(try terminal.cursor() == TmuxTerminal.Cursor(x: 30, y: after.count - 2), "the cursor where it was")

        try terminal.type("!")
        _ = try await terminal.waitUntil("the next key to land at the cursor") {
            $0.suffix(2).joined() == "replay> " + typed.prefix(22) + "!" + typed.dropFirst(22)
        }
    }
}
