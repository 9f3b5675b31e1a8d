import ArgumentParser
import BCMessages

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List every message kind the model knows."
    )

    func run() throws {
        for type in BCType.allCases {
            print(type.rawValue, type.name, type.payloadTypeName ?? "-")
        }
    }
}
