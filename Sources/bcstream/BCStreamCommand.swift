import ArgumentParser

@main
struct BCStreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bcstream",
        abstract: "Turn a live stream's bcsvr pub/sub messages into typed values.",
        subcommands: [DemoCommand.self, ListenCommand.self, ReplayCommand.self, DecodeCommand.self, TypesCommand.self,
                      BenchCommand.self]
    )
}
