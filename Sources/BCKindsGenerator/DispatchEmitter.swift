/// `BCType.generated.swift` and `BCResponse.generated.swift`: one case per kind, the table behind `BCType`'s
/// properties, and the switches that decode, dispatch and extract each kind.
enum DispatchEmitter {
    static func evidenceText(_ evidence: Evidence) -> String {
        switch evidence {
        case .captured: "captured on the wire"
        case .appModel: "the 2022 app's model"
        case .appModelMeaningGuessed: "the 2022 app's model; meaning guessed from its name"
        case .clientCodeOnly: "a third-party client reacts to it; fields unknown"
        }
    }

    static func quoted(_ text: String?) -> String {
        guard let text else { return "nil" }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func bcType(_ catalogue: Catalogue) -> String {
        var lines = KindsGenerator.header(source: "Catalogue/Catalogue.swift and Catalogue/Kinds/")
        lines += """
            /// The kind of a bcsvr message: its integer `"t"`.
            ///
            /// One case per kind known today (the catalogue: `Catalogue/`); every case documents its meaning, the
            /// app's event name, the evidence behind it and the `BCResponse` case that carries it. A `t` not listed
            /// here decodes to `BCResponse.unknown`, never to an error.
            public enum BCType: Int, CaseIterable, Hashable, Sendable, Codable {
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for kind in catalogue.kinds {
            let app = kind.appEvent.map { "App event `\($0)`" } ?? "Not in the app"
            let payload = kind.payloadName.map { "`BCResponse.\($0)`" } ?? "no payload"
            let doc = "t=\(kind.t): \(kind.meaning). \(app); evidence: \(evidenceText(kind.evidence)); \(payload)."
            lines.append("    /// " + doc)
            lines.append("    case \(kind.name) = \(kind.t)")
        }
        lines.append("}")
        lines.append("")
        lines.append("extension BCType {")
        lines += member("/// The short name used in output (`\"gift\"`): the case name. A switch of literals, not "
                        + "`String(describing:)`,\n    /// whose reflection cost a tenth of `listen`'s CPU.",
                        "public var name: String", "self",
                        catalogue.kinds.map { "case .\($0.name): \(quoted($0.name))" })
        lines.append("")
        lines.append("    /// What the catalogue says of each kind (`meaning`, `appEventName`, `evidence`, `payloadTypeName`).")
        lines.append("    static let table: [BCType: Info] = [")
        for kind in catalogue.kinds {
            let keys = wireKeys(kind, catalogue).map { "[" + $0.map { quoted($0) }.joined(separator: ", ") + "]" } ?? "nil"
            lines.append("        .\(kind.name): Info(")
            lines.append("            meaning: \(quoted(kind.meaning)), appEventName: \(quoted(kind.appEvent)), "
                + "evidence: .\(kind.evidence.rawValue),")
            lines += SwiftText.wrap("payload: \(quoted(kind.payloadName)), keys: \(keys)),",
                                    first: "            ", rest: "                ")
        }
        lines.append("    ]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The top-level keys a kind's payload reads, flattened blocks included, in declaration order; nil for a
    /// hand-written payload (it keeps the message whole).
    static func wireKeys(_ kind: Kind, _ catalogue: Catalogue) -> [String]? {
        switch kind.payload {
        case .none: return []
        case .handWritten: return nil
        case .declared(let payload):
            return payload.properties.flatMap { property -> [String] in
                if let key = property.key { return [key] }
                guard case .flattened(let name) = property.type,
                      let block = catalogue.shared.first(where: { $0.name == name })
                else { return [] }
                return block.properties.compactMap(\.key)
            }
        }
    }

    /// A member whose body is one switch: `doc`, `declaration {`, `switch subject {`, the cases, and the braces.
    static func member(_ doc: String, _ declaration: String, _ subject: String, _ cases: [String]) -> [String] {
        ["    " + doc, "    \(declaration) {", "        switch \(subject) {"] + cases.map { "        " + $0 }
            + ["        }", "    }"]
    }

    static func bcResponse(_ catalogue: Catalogue) -> String {
        var lines = KindsGenerator.header(source: "Catalogue/Catalogue.swift and Catalogue/Kinds/")
        lines += """
            /// One bcsvr message, typed by its kind.
            ///
            /// A kind with keys carries its own struct (`case gift(BCResponse.Gift)`); a kind with none is a bare case
            /// (`case liveUnlinked`); a `t` the model does not know is `.unknown`, kept whole. Decoding reads `t` once and
            /// decodes only that kind's struct. A caller depends only on the kinds it handles:
            ///
            /// ```swift
            /// switch try BCMessageDecoder().decode(frame) {
            /// case .gift(let gift): show(gift)
            /// case .liveEnded: stop()
            /// default: break
            /// }
            /// ```
            ///
            /// `indirect`: each payload lives in a box of its own, so a `BCResponse` is one pointer wide. Inline, the
            /// enum would be as large as its largest payload (1.8 KB), copied whole at every move.
            public indirect enum BCResponse: Hashable, Sendable {
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for kind in catalogue.kinds {
            lines.append("    /// t=\(kind.t): \(kind.meaning).")
            lines.append("    case \(kind.name)" + (kind.payloadName.map { "(\($0))" } ?? ""))
        }
        lines.append("    /// A kind the model does not know: kept, not fatal.")
        lines.append("    case unknown(Unknown)")
        lines.append("}")
        lines.append("")
        let kinds = catalogue.kinds
        lines.append("extension BCResponse {")
        lines += member("/// The message's kind, or nil for `.unknown`.", "public var type: BCType?", "self",
                        kinds.map { "case .\($0.name): .\($0.name)" } + ["case .unknown: nil"])
        lines.append("")
        lines += member("/// The payload struct of a kind with keys, nil for a bare case or an unknown kind.",
                        "public var payload: (any BCPayload)?", "self",
                        kinds.map { "case .\($0.name)" + ($0.payloadName == nil ? ": nil" : "(let payload): payload") }
                            + ["case .unknown: nil"])
        lines.append("")
        lines += member("/// A message of a known kind, decoded by its payload struct's `init(from:)`.",
                        "init(decoding type: BCType, from decoder: any Decoder) throws", "type",
                        kinds.map { "case .\($0.name): self = .\($0.name)" + ($0.payloadName.map { "(try \($0)(from: decoder))" } ?? "") })
        lines.append("")
        lines += member("/// Every kind, read by direct extraction (`init(tape:)`, generated beside each payload struct).",
                        "static func extractDirectly(_ type: BCType, from object: TapeObject) throws(FastMiss) -> BCResponse",
                        "type",
                        // A bare kind reads no member, so its keys are checked here (a struct's member pass checks them).
                        kinds.map { kind in
                            "case .\(kind.name): " + (kind.payloadName.map { ".\(kind.name)(try \($0)(tape: object))" }
                                                       ?? "try object.withPlainKeys(.\(kind.name))")
                        })
        lines.append("")
        lines += member(
            "/// The message as `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) encodes it, written directly.",
            "public func writeCanonicalPayloadJSON(into writer: inout CanonicalJSONWriter)", "self",
            kinds.map { kind in
                guard kind.payloadName != nil else {
                    return "case .\(kind.name): writer.bareMessage(t: \(kind.t))"
                }
                return "case .\(kind.name)(let payload): payload.writeCanonicalJSON(into: &writer, t: \(kind.t))"
            } + ["case .unknown(let unknown): unknown.writeCanonicalJSON(into: &writer)"])
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
