import Foundation
import PackagePlugin

/// `swift package generate-kinds`: regenerates `Sources/BCMessages` from the catalogue (`Catalogue/`) with the
/// `bcstream-codegen` tool. `--check` writes nothing and fails when the committed files are stale; `--json-schema` prints the catalogue
/// as a JSON Schema.
@main
struct GenerateKinds: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "bcstream-codegen")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.filter { $0 == "--check" || $0 == "--json-schema" } + [context.package.directoryURL.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("bcstream-codegen failed (status \(process.terminationStatus))")
            return
        }
    }
}
