import Foundation

/// A tmux server of its own (`-L`, a socket name unique to the test) running one command in a detached pane of
/// a fixed size, read back as text. `kill()` ends the server and the command.
final class TmuxTerminal {
    struct Cursor: Equatable, CustomStringConvertible {
        let x: Int
        let y: Int
        var description: String { "(\(x), \(y))" }
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private let socket = "bcstream-test-\(UUID().uuidString.prefix(8))"
    /// The configuration, and the output of each tmux command.
    private let directory: URL
    private var configuration: URL { directory.appendingPathComponent("tmux.conf") }

    /// Starts `command` in a pane of `columns` × `rows`, in the checkout, with TERM=screen (whose terminfo entry
    /// every Debian has). When the command exits, a line `[exited STATUS]` is printed below it and the pane stays,
    /// so its last screen and exit status can be read (tmux 3.3's `pane_dead_status` comes late or not at all).
    init(command: [String], columns: Int = 100, rows: Int = 30) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("set -g default-terminal screen\nset -g remain-on-exit on\nset -g status off\n".utf8).write(to: configuration)
        _ = try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-c", BCStreamProcess.repository.path,
                      "--", "/bin/sh", "-c", #""$0" "$@"; echo "[exited $?]""#] + command)
    }

    /// Types `text` as it is (no key names).
    func type(_ text: String) throws {
        _ = try tmux(["send-keys", "-l", "--", text])
    }

    /// Presses keys by tmux's names: `Enter`, `Tab`, `Up`, `Left`, `C-u`.
    func press(_ keys: String...) throws {
        _ = try tmux(["send-keys"] + keys)
    }

    /// The pane's lines as shown, blanks at their ends and blank lines at the bottom left out.
    func screen() throws -> [String] {
        var lines = try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    func cursor() throws -> Cursor {
        let numbers = try tmux(["display-message", "-p", "#{cursor_x} #{cursor_y}"])
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { throw Failed(description: "tmux gave no cursor position") }
        return Cursor(x: numbers[0], y: numbers[1])
    }

    /// Polls the screen every 50 ms until `condition` holds, and returns it; fails with the last screen after
    /// `timeout`.
    func waitUntil(_ what: String, within timeout: Duration = .seconds(10),
                   _ condition: ([String]) throws -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = try screen()
            if try condition(screen) { return screen }
            guard ContinuousClock.now < deadline else {
                throw Failed(description: "timed out after \(timeout) waiting for \(what); the screen:\n"
                                 + screen.joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits for the command to exit and returns its status.
    func waitForExit(within timeout: Duration = .seconds(10)) async throws -> Int32 {
        let screen = try await waitUntil("the command to exit", within: timeout) {
            $0.contains { $0.hasPrefix("[exited ") }
        }
        let line = screen.last { $0.hasPrefix("[exited ") } ?? ""
        guard let status = Int32(line.dropFirst("[exited ".count).dropLast()) else {
            throw Failed(description: "no exit status in \(line)")
        }
        return status
    }

    func kill() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `tmux -L <socket> -f <configuration> ARGUMENTS` and returns its stdout; throws when it fails or is
    /// missing (the README's test command installs it).
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: the first command starts the tmux server, which
    /// the pane's command inherits from, so it must be spawned with an empty signal mask and default actions (a
    /// concurrency thread blocks almost every signal); and Process notices exits through a SIGCHLD source that an
    /// unblocked SIGCHLD can bypass. Output goes to files, not pipes: the server keeps what it inherited open.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let name = UUID().uuidString
        let out = directory.appendingPathComponent("\(name).out"), err = directory.appendingPathComponent("\(name).err")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process: the tmux server would keep other tests' pipes open (their EOF never comes).
        closeInheritedDescriptors(in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil  // a test run inside tmux must not talk to the person's server
        let argv = (["tmux", "-L", socket, "-f", configuration.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Failed(description: "cannot run tmux (\(String(cString: strerror(spawned)))): the README's test command installs it")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exitStatus == 0 else {
            throw Failed(description: "tmux \(arguments.joined(separator: " ")) failed (\(exitStatus)): "
                             + String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
        }
        return String(decoding: try Data(contentsOf: out), as: UTF8.self)
    }
}
