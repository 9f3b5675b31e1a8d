import Foundation
import Testing

/// What a person sees on a real terminal: `bcstream` runs inside tmux (a pseudo-terminal of a known size), and
/// the screen tmux holds is read back and judged line by line.
@Suite("On a terminal", .serialized, .timeLimit(.minutes(1)))
struct TerminalScreenTests {
    /// One tmux server of its own (`-L`), killed at the end: nothing of it outlives the test.
    final class Screen {
        let socket = "bcstream-test-\(UUID().uuidString.prefix(8))"

        init(columns: Int, rows: Int, command: String) throws {
            try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
        }

        deinit { try? tmux(["kill-server"]) }

        /// Runs tmux and waits for it. Spawned directly, not with `Process`: the tmux server daemon inherits the
        /// descriptor `Process` watches for its child's exit, so `waitUntilExit` would wait for the server.
        /// (The same as `ReplayPromptTerminalTests`' spawn, which also captures output; kept apart for now.)
        func tmux(_ arguments: [String]) throws {
            let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in 0...2 {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            // Nothing else of this process: the tmux server would keep other tests' pipes open (their EOF never
            // comes) for as long as it lives.
            closeInheritedDescriptors(in: &actions)
            var pid: pid_t = 0
            let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
            try #require(spawned == 0, "tmux could not be started (is it installed?): \(String(cString: strerror(spawned)))")
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }

        /// The screen's rows, as tmux holds them.
        func rows() throws -> [String] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).screen")
            defer { try? FileManager.default.removeItem(at: file) }
            try tmux(["capture-pane", "-t", "0", ";", "save-buffer", file.path])
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        }

        /// Polls the screen (every 100 ms, at most `seconds`) until a row satisfies `done`.
        func rows(within seconds: Double, until done: (String) -> Bool) async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                let rows = try rows()
                if rows.contains(where: done) { return rows }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("the screen never showed what was awaited:\n\(try rows().joined(separator: "\n"))")
            return try rows()
        }
    }

    static var messageRow: Regex<(Substring, Substring)> { /^t=(\d+|\?) +[A-Za-z?]+ +\S/ }

    @Test("the demo reads cleanly: one message a row from column 0, never wrapped, the status never glued to one",
          arguments: [80, 100])
    func demoReadsCleanly(columns: Int) async throws {
        let screen = try Screen(columns: columns, rows: 60, command:
            "cd '\(BCStreamProcess.repository.path)' && '\(BCStreamProcess.executable.path)' demo; echo EXIT=$?; sleep 60")
        let rows = try await screen.rows(within: 40) { $0.hasPrefix("EXIT=") }
        let shown = rows.filter { !$0.isEmpty }
        #expect(shown.contains("EXIT=0"))

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
                let note = /^(demo: |connected to |subscribed to |the live ended|\d+ messages: |EXIT=)/
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
