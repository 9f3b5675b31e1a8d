// Writes the Swift that the catalogue (`Catalogue/`) declares into `Sources/BCMessages`, and removes generated
// files the catalogue no longer declares. Run through the package plugin: `swift package generate-kinds`.
//
//   bcstream-codegen [--check | --json-schema] [PACKAGE_DIRECTORY]
//
// --check writes nothing and exits 1, naming the files, when the committed ones differ from the catalogue.
// --json-schema writes nothing and prints the catalogue as a JSON Schema of one message.
import BCKindsCatalogue
import BCKindsGenerator
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
let jsonSchema = arguments.contains("--json-schema")
arguments.removeAll { $0.hasPrefix("--") }
let package = URL(fileURLWithPath: arguments.first ?? FileManager.default.currentDirectoryPath)
let output = package.appendingPathComponent("Sources/BCMessages")

do {
    if jsonSchema {
        print(try KindsGenerator.jsonSchema(for: .bcstream), terminator: "")
        exit(0)
    }
    let files = try KindsGenerator.files(for: .bcstream)
    let stale = try KindsGenerator.staleFiles(files, in: output)
    if check {
        for change in stale { print("stale: Sources/BCMessages/\(change)") }
        if !stale.isEmpty { print("run `swift package generate-kinds` and commit the result") }
        exit(stale.isEmpty ? 0 : 1)
    }
    try KindsGenerator.write(files, to: output)
    let declared = Set(files.map(\.path))
    let rewritten = stale.filter(declared.contains), removed = stale.filter { !declared.contains($0) }
    if stale.isEmpty { print("Sources/BCMessages is up to date (\(files.count) generated files)") }
    if !rewritten.isEmpty {
        print("regenerated \(rewritten.count) of \(files.count) generated files: \(rewritten.joined(separator: ", "))")
    }
    if !removed.isEmpty { print("removed, as the catalogue no longer declares them: \(removed.joined(separator: ", "))") }
} catch let error as CatalogueError {
    FileHandle.standardError.write(Data("error: the catalogue: \(error)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
