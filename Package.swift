// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "BCStream",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "BCMessages", targets: ["BCMessages"]),
        .executable(name: "bcstream", targets: ["bcstream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    ],
    targets: [
        // The typed model of every bcsvr message kind. Pure Swift: no C, no other target.
        .target(name: "BCMessages"),
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
        // Runs the built command as a user would.
        .testTarget(name: "bcstreamTests", dependencies: ["bcstream", "BCMessages"]),
    ],
    swiftLanguageModes: [.v6]
)
