// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BCStream",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "BCMessages", targets: ["BCMessages"]),
        .library(name: "BCWebSocket", targets: ["BCWebSocket"]),
        .executable(name: "bcstream", targets: ["bcstream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    ],
    targets: [
        // The typed model of every bcsvr message kind. Pure Swift: no C, no other target.
        .target(name: "BCMessages"),
        // Debian's libwebsockets-dev 4.1.6, seen through module.modulemap + shim.h.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // The WebSocket client and server over libwebsockets. Its own target because both the
        // listener (client) and the replay tool (server) import it.
        .target(name: "BCWebSocket", dependencies: ["CLibWebSockets"]),
        .executableTarget(
            name: "bcstream",
            dependencies: [
                "BCMessages",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
        .testTarget(name: "BCWebSocketTests", dependencies: ["BCWebSocket"]),
    ],
    swiftLanguageModes: [.v6]
)
