import ArgumentParser
import BCConsole
import BCMessages

struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List every message kind the model knows: t, kind, payload type, evidence and meaning.",
        discussion: """
            Evidence says how far to trust a kind's model: captured (seen on the wire), appModel (the \
            official app's decoder), appModelMeaningGuessed, clientCodeOnly. A t not listed decodes as \
            "unknown" and is kept whole.

            json-schema prints the JSON Schema (2020-12) of one line of `decode` and `listen` with --format \
            ndjson, which is also one message of the fleet's stream (docs/fleet-stream.md).

            Example: bcstream types --format ndjson | grep '"evidence":"captured"'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, ndjson
        case jsonSchema = "json-schema"
    }

    @Option(help: """
        Output format: text (a table), ndjson (one {\"t\":35,\"kind\":\"gift\",…} per line) or json-schema \
        (the schema of an NDJSON message line).
        """)
    var format: Format = .text

    func run() {
        if format == .jsonSchema {
            print(BCType.ndjsonSchema)
            return
        }
        for type in BCType.allCases {
            switch format {
            case .text:
                let columns = [
                    MessageFormatter.padded(String(type.rawValue), 4),
                    MessageFormatter.padded(type.name, 31),
                    MessageFormatter.padded(type.payloadTypeName ?? "(no payload)", 43),
                    MessageFormatter.padded(type.evidence.rawValue, 23),
                    type.meaning,
                ]
                print(columns.joined(separator: " "))
            case .ndjson, .jsonSchema:
                var fields = [
                    "\"t\":\(type.rawValue)",
                    "\"kind\":\(MessageFormatter.quoted(type.name))",
                ]
                if let payload = type.payloadTypeName { fields.append("\"payload\":\(MessageFormatter.quoted(payload))") }
                if let event = type.appEventName { fields.append("\"app_event\":\(MessageFormatter.quoted(event))") }
                fields.append("\"evidence\":\(MessageFormatter.quoted(type.evidence.rawValue))")
                fields.append("\"meaning\":\(MessageFormatter.quoted(type.meaning))")
                print("{" + fields.joined(separator: ",") + "}")
            }
        }
    }
}
