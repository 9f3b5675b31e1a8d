// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BCStream",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "BCMessages", targets: ["BCMessages"]),
        .library(name: "BCListener", targets: ["BCListener"]),
        .executable(name: "bcstream", targets: ["bcstream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // Counts allocations for `bcstream bench` (malloc/free of the bench process only).
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // The typed model of every bcsvr message kind. Pure Swift: no C, no other target.
        .target(name: "BCMessages"),
        // The subscription client. For now only its socket-free half: bcsvr lines, the session state machine
        // (protocol, keepalive, reconnect decisions) and the events it reports.
        .target(name: "BCListener", dependencies: ["BCMessages"]),
        .executableTarget(
            name: "bcstream",
            dependencies: [
                "BCMessages",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        .testTarget(
            name: "BCMessagesTests",
            dependencies: [
                "BCMessages",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            exclude: ["Goldens"]
        ),
        .testTarget(name: "BCListenerTests", dependencies: ["BCListener", "BCMessages"]),
        // Runs the built command as a user would.
        .testTarget(name: "bcstreamTests", dependencies: ["bcstream", "BCMessages"]),
    ],
    swiftLanguageModes: [.v6]
)
