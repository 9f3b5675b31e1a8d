/// `BCType+WireFields.generated.swift`: every key path each kind's payload reads (`rankings[].ei`), with the form its
/// property declares and whether it is required: what `bcstream audit` holds captures to, so that the keys the
/// model knows are the catalogue's, written once.
enum ShapeEmitter {
    /// One path of a kind's payload, in declaration order.
    struct Field: Equatable {
        var path: String
        var form: String
        var isOptional: Bool
    }

    /// The fields of a declared payload: its keys, the keys of the blocks it flattens, and, below an object or an
    /// array, the keys of the struct it holds (`avatar.body.head.id`, `rankings[]`, `rankings[].nrc[].u`).
    static func fields(_ payload: Struct, _ catalogue: Catalogue) -> [Field] {
        var structs: [String: Struct] = [:]
        func collect(_ item: Struct, as name: String) {
            structs[name] = item
            for nested in item.nested { collect(nested, as: name + "." + nested.name) }
        }
        for kind in catalogue.kinds { if case .declared(let payload) = kind.payload { collect(payload, as: payload.name) } }
        for item in catalogue.shared { collect(item, as: item.name) }

        func resolve(_ name: String, from scope: String) -> (String, Struct)? {
            var scope = scope
            while !scope.isEmpty {
                if let item = structs[scope + "." + name] { return (scope + "." + name, item) }
                scope = scope.contains(".") ? String(scope[..<scope.lastIndex(of: ".")!]) : ""
            }
            return structs[name].map { (name, $0) }
        }

        var fields: [Field] = []
        // `depth` guards against a struct that holds itself (none does today); 16 levels is far beyond any payload.
        func walk(_ item: Struct, scope: String, prefix: String, depth: Int) {
            guard depth < 16 else { return }
            for property in item.properties {
                guard let key = property.key else {
                    if case .flattened(let name) = property.type, let (qualified, block) = resolve(name, from: scope) {
                        walk(block, scope: qualified, prefix: prefix, depth: depth + 1)
                    }
                    continue
                }
                let path = prefix + key
                switch property.type {
                case .string: fields.append(Field(path: path, form: "string", isOptional: property.isOptional))
                case .int: fields.append(Field(path: path, form: "int", isOptional: property.isOptional))
                case .bool: fields.append(Field(path: path, form: "bool", isOptional: property.isOptional))
                case .double: fields.append(Field(path: path, form: "double", isOptional: property.isOptional))
                case .openEnum, .forcibleOpenEnum:
                    fields.append(Field(path: path, form: "openEnum", isOptional: property.isOptional))
                case .stringDictionary:
                    fields.append(Field(path: path, form: "stringDictionary", isOptional: property.isOptional))
                case .strings, .ints:
                    fields.append(Field(path: path, form: "array", isOptional: property.isOptional))
                    let element = property.type == .strings ? "string" : "int"
                    fields.append(Field(path: path + "[]", form: element, isOptional: false))
                case .object(let name):
                    fields.append(Field(path: path, form: "object", isOptional: property.isOptional))
                    if let (qualified, nested) = resolve(name, from: scope) {
                        walk(nested, scope: qualified, prefix: path + ".", depth: depth + 1)
                    }
                case .objects(let name):
                    fields.append(Field(path: path, form: "array", isOptional: property.isOptional))
                    fields.append(Field(path: path + "[]", form: "object", isOptional: false))
                    if let (qualified, nested) = resolve(name, from: scope) {
                        walk(nested, scope: qualified, prefix: path + "[].", depth: depth + 1)
                    }
                case .flattened(let name):
                    if let (qualified, block) = resolve(name, from: scope) {
                        walk(block, scope: qualified, prefix: prefix, depth: depth + 1)
                    }
                }
            }
        }
        walk(payload, scope: payload.name, prefix: "", depth: 0)
        return fields
    }

    static func file(_ catalogue: Catalogue) -> String {
        var lines = KindsGenerator.header(source: "Catalogue/Catalogue.swift and Catalogue/Kinds/")
        lines.append("extension BCType {")
        lines.append("    /// Every key path of each kind's payload, from the catalogue (`BCType.wireFields`). A bare kind has")
        lines.append("    /// none; a kind whose payload is written by hand (it keeps every key) is absent.")
        lines.append("    static let fieldTable: [BCType: [BCWireField]] = [")
        for kind in catalogue.kinds {
            switch kind.payload {
            case .handWritten: continue
            case .none: lines.append("        .\(kind.name): [],")
            case .declared(let payload):
                lines.append("        .\(kind.name): [")
                for field in fields(payload, catalogue) {
                    let optional = field.isOptional ? ", optional: true" : ""
                    lines.append("            BCWireField(\(DispatchEmitter.quoted(field.path)), .\(field.form)\(optional)),")
                }
                lines.append("        ],")
            }
        }
        lines.append("    ]")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
