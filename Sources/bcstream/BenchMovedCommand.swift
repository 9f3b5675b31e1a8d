import ArgumentParser

/// `bcstream bench`, which is now `bcstream-bench` (a tool of the repository, not part of the installed command):
/// hidden from help, it says where the bench went instead of "unexpected argument", for those used to it.
struct BenchMovedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Moved to its own program, bcstream-bench, with the same options.",
        shouldDisplay: false
    )

    @Argument(parsing: .captureForPassthrough, help: "The options, for bcstream-bench.")
    var options: [String] = []

    func run() throws {
        throw CommandFailure("bench moved to its own program: run `bcstream-bench` with the same options")
    }
}
