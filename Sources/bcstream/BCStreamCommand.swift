import ArgumentParser
import BCMessages

@main
struct BCStreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bcstream",
        abstract: "Turn a live stream's bcsvr pub/sub messages into typed values.",
        discussion: """
            Start with `bcstream demo` (a live replayed on loopback), then `bcstream help <subcommand>`.
            """,
        version: BCStreamVersion.current,
        subcommands: [DemoCommand.self, ListenCommand.self, ReplayCommand.self, DecodeCommand.self, TypesCommand.self,
                      AuditCommand.self, FixtureCommand.self, WorkerCommand.self, FollowCommand.self,
                      BenchMovedCommand.self]
    )

    /// ArgumentParser's `help` shows the root's help, with status 0, for a topic it does not know: a script
    /// would take `bcstream help lisen` for success. An unknown topic is a usage error here (64).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "help", let topic = arguments.dropFirst().first {
            let known = configuration.subcommands.compactMap { $0.configuration.commandName }
            if !known.contains(topic) {
                exit(withError: ValidationError(
                    "no subcommand named '\(topic)'; the subcommands are \(known.joined(separator: ", "))"))
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
