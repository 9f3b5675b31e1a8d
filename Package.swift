// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "BCStream",
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .library(name: "BCMessages", targets: ["BCMessages"]),
        .library(name: "BCWebSocket", targets: ["BCWebSocket"]),
        .library(name: "BCHTTP", targets: ["BCHTTP"]),
        .library(name: "BCListener", targets: ["BCListener"]),
        .library(name: "BCConsole", targets: ["BCConsole"]),
        .library(name: "BCLineEditor", targets: ["BCLineEditor"]),
        .library(name: "BCReplay", targets: ["BCReplay"]),
        .library(name: "BCFixtures", targets: ["BCFixtures"]),
        .library(name: "BCAudit", targets: ["BCAudit"]),
        .library(name: "BCFleet", targets: ["BCFleet"]),
        .executable(name: "bcstream", targets: ["bcstream"]),
        .plugin(name: "GenerateKinds", targets: ["GenerateKinds"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // Counts allocations for `bcstream-bench` (malloc/free of the bench process only).
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // The worker's counters (swift-metrics) and their Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The fleet's log (worker, listen --publish): levels and metadata, a plain stderr handler.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation`: the DocC catalogues of the library products (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The typed model of every bcsvr message kind. Pure Swift: no C, no other target.
        .target(name: "BCMessages"),
        // The catalogue of kinds and the generator that writes BCMessages' payload structs, BCType and BCResponse
        // from it (docs/DESIGN.md, "One place per key"). Tools for this repository: BCMessages does not depend on
        // them, so an app that uses BCMessages never builds them.
        .target(name: "BCKindsGenerator"),
        .target(name: "BCKindsCatalogue", dependencies: ["BCKindsGenerator"], path: "Catalogue"),
        .executableTarget(name: "bcstream-codegen", dependencies: ["BCKindsCatalogue", "BCKindsGenerator"]),
        .plugin(
            name: "GenerateKinds",
            capability: .command(
                intent: .custom(verb: "generate-kinds", description: "Regenerate Sources/BCMessages from Catalogue/"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift into Sources/BCMessages")]
            ),
            dependencies: ["bcstream-codegen"]
        ),
        .testTarget(name: "BCKindsGeneratorTests", dependencies: ["BCKindsCatalogue", "BCKindsGenerator"]),
        // Debian's libwebsockets-dev 4.1.6, seen through module.modulemap + shim.h.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Debian's zlib1g-dev (libwebsockets-dev depends on it): the client inflates permessage-deflate messages
        // itself, since it reads its own frames (docs/DESIGN.md, "The client reads its own frames").
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Debian's libssl-dev (OpenSSL 3, which libwebsockets-dev depends on): TLS for a wss:// client, which reads its
        // own frames over a raw socket (docs/DESIGN.md, "The live path, hop by hop").
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Debian's libedit-dev 3.1 (BSD editline, its readline-compatible API), seen through module.modulemap +
        // shim.h: the line editor of `bcstream replay`'s prompt. Only BCLineEditor uses it; BCReplay keeps the
        // prompt's words (PromptCompletion) and its commands (ReplayPrompt) free of C.
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // Debian's libnats-dev 3.4 (nats.c, the official NATS client with JetStream), seen through
        // module.modulemap + shim.h.
        .systemLibrary(
            name: "CLibNATS",
            pkgConfig: "libnats",
            providers: [.apt(["libnats-dev"])]
        ),
        // A thin Sendable binding over nats.c: connection with reconnect, JetStream publish with acks and
        // Nats-Msg-Id, streams, pull consumers, ack / nak / in-progress (docs/DESIGN.md, "The fleet").
        .target(name: "BCNATS", dependencies: ["CLibNATS"]),
        // The WebSocket client and server over libwebsockets. Its own target because both the
        // listener (client) and the replay tool (server) import it.
        .target(name: "BCWebSocket", dependencies: ["CLibWebSockets", "CZlib", "COpenSSL"]),
        // The HTTP(S) GET client of the live API (LiveDirectory): over BCWebSocket's socket, name resolution and
        // client TLS, which it sees at the `package` access level, so BCWebSocket's public API stays the WebSocket's.
        .target(name: "BCHTTP", dependencies: ["BCWebSocket"]),
        // The subscription client: bcsvr lines, the session state machine (protocol, keepalive, reconnect
        // decisions), and the listener that performs its decisions on a libwebsockets connection.
        .target(name: "BCListener", dependencies: ["BCMessages", "BCWebSocket", "BCHTTP"]),
        // What bcstream shows on a terminal or a pipe: a message as one line (text or NDJSON), the buffered
        // stdout, the status line on stderr, terminal widths, the listen session that prints its channels, and
        // the prompt console's protocol. Pure Swift over BCMessages and BCListener (docs/DESIGN.md, "Module
        // boundaries").
        .target(name: "BCConsole", dependencies: ["BCMessages", "BCListener"]),
        // The prompt's line editor on a terminal (libedit): history, editing keys, Tab completion, lines said kept
        // above the prompt. Its own target so that only a program that shows the prompt links libedit.
        .target(name: "BCLineEditor", dependencies: ["BCConsole", "CLibEdit"]),
        // Fixtures and recordings: finding and loading them, the pace they play at, the demo's script, the
        // prompt's completion and commands, what `decode` reads, and the bcsvr server that sends them to
        // subscribers.
        .target(name: "BCReplay", dependencies: ["BCConsole", "BCFixtures", "BCMessages", "BCListener", "BCWebSocket"]),
        // The fixtures as a product: Tests/Payloads, the one set of files the tests and the replay read,
        // copied whole into this target's resource bundle. The target's folder is Tests, so that Payloads lies
        // inside it (SwiftPM takes no resource from outside a target's folder, and cannot copy a target's own
        // folder); its sources are Tests/BCFixtures; every other folder of Tests is excluded here, or SwiftPM
        // warns of unhandled files: a new folder of Tests goes into this list (docs/DESIGN.md, "The fixtures are
        // a product"). Its DocC catalogue is Tests/BCFixtures.docc: inside Tests/BCFixtures, a listed source folder,
        // SwiftPM would hand the .docc folder to the compiler as a source file.
        .target(
            name: "BCFixtures",
            dependencies: ["BCMessages"],
            path: "Tests",
            exclude: [
                "BCAuditTests", "BCConsoleTests", "BCFixturesTests", "BCFleetTests", "BCHTTPTests", "BCKindsGeneratorTests",
                "BCLineEditorTests", "BCListenerTests", "BCMessagesTests", "BCNATSTests", "BCReplayTests", "BCWebSocketTests",
                "ExamplesTests", "Hostile", "Peers", "TestSupport", "bcstreamTests",
            ],
            sources: ["BCFixtures"],
            resources: [.copy("Payloads")]
        ),
        // `bcstream audit` and `bcstream fixture add`: captures compared with the model (the catalogue's key paths,
        // `BCType.wireFields`) and a captured message made into a fixture. Pure Swift over BCMessages only.
        .target(name: "BCAudit", dependencies: ["BCMessages"]),
        // The NATS fleet: the worker, the live publisher and its bounded buffer, follow requests, the
        // subjects, the counters and the metrics HTTP server. A library so that `bcstream worker` is one user of it
        // and a program can embed a worker; its tests use it directly (BCFleetTests).
        .target(
            name: "BCFleet",
            dependencies: [
                "BCConsole",
                "BCMessages",
                "BCListener",
                "BCWebSocket",
                "BCNATS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "bcstream",
            dependencies: [
                "BCAudit",
                "BCConsole",
                "BCFleet",
                "BCLineEditor",
                "BCMessages",
                "BCListener",
                "BCReplay",
                "BCWebSocket",
                "BCNATS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The measuring harness (decoding speed, allocations, end to end over loopback): a tool of this repository,
        // apart from `bcstream` so that no user's command line carries it (docs/DESIGN.md, "The bench is its own
        // program"). No product: `swift build` builds it beside bcstream.
        .executableTarget(
            name: "bcstream-bench",
            dependencies: [
                "BCMessages",
                "BCListener",
                "BCReplay",
                "BCWebSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The echo peer of the Autobahn conformance suite (scripts/autobahn.sh), over BCWebSocket's public API only.
        // Not a product: nothing that depends on this package builds it.
        .executableTarget(name: "autobahn-echo", dependencies: ["BCWebSocket"]),
        .testTarget(
            name: "BCMessagesTests",
            dependencies: [
                "BCFixtures",
                "BCMessages",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            exclude: ["Goldens"]
        ),
        // What the test targets share: child processes (the Python peers of Tests/Peers, the built binary)
        // whose output lines can be awaited, and waits that fail with a message instead of hanging. A plain
        // target, not a test target, so that test targets can depend on it; no product exports it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BCWebSocketTests", dependencies: ["BCWebSocket", "TestSupport"]),
        .testTarget(name: "BCHTTPTests", dependencies: ["BCHTTP", "BCWebSocket", "TestSupport"]),
        .testTarget(name: "BCConsoleTests", dependencies: ["BCConsole", "BCListener", "BCMessages"]),
        // What the prompt's editor does without a person at a terminal: its layout, the completion and history it
        // hands libedit, and no editor when stdin is not a terminal.
        .testTarget(name: "BCLineEditorTests", dependencies: ["BCConsole", "BCLineEditor", "CLibEdit"]),
        .testTarget(name: "BCNATSTests", dependencies: ["BCNATS", "TestSupport"]),
        .testTarget(
            name: "BCListenerTests",
            dependencies: ["BCHTTP", "BCListener", "BCMessages", "BCWebSocket", "TestSupport"]
        ),
        .testTarget(name: "BCAuditTests", dependencies: ["BCAudit", "BCMessages"]),
        .testTarget(name: "BCFixturesTests", dependencies: ["BCFixtures", "BCMessages"]),
        .testTarget(name: "BCFleetTests", dependencies: [
            "BCConsole", "BCFleet", "BCListener", "BCMessages", "TestSupport",
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "BCReplayTests", dependencies: [
            "BCConsole", "BCReplay", "BCListener", "BCMessages", "BCWebSocket", "TestSupport",
        ]),
        // Every Swift example printed in README.md and the DocC articles, compiled exactly as printed, and run where
        // it can be (PrintedExamplesTests holds each printed block to its copy here). One file per document,
        // importing only what that document's examples import, so this target depends on every product they use.
        .testTarget(name: "ExamplesTests", dependencies: [
            "BCAudit", "BCConsole", "BCFixtures", "BCFleet", "BCHTTP", "BCLineEditor", "BCListener", "BCMessages",
            "BCReplay", "BCWebSocket",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Runs the built commands (bcstream, bcstream-bench) as a user would.
        // The malloc interposer is built beside bcstream-bench for its counting run, which preloads it; the bench
        // does not link it (it would replace malloc while decoders are timed). See AllocationCounter.swift.
        .testTarget(name: "bcstreamTests", dependencies: [
            "bcstream", "bcstream-bench", "BCAudit", "BCFleet", "BCMessages", "BCReplay", "TestSupport",
            .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
