// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AutoMagicCoding",
    // Apple minimums for the standard-library and Foundation calls we use (Linux has none).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16)],
    products: [
        .library(name: "AutoMagicCoding", targets: ["AutoMagicCoding"]),
        .executable(name: "amc", targets: ["amc"]),
    ],
    targets: [
        .target(name: "AutoMagicCoding"),
        .target(name: "AMCExample", dependencies: ["AutoMagicCoding"]),
        .executableTarget(name: "amc", dependencies: ["AutoMagicCoding", "AMCExample"]),
        // What depends on the optimizer, checked in a release build (`.ci/run` runs it).
        .executableTarget(name: "ReleaseChecks", dependencies: ["AutoMagicCoding"]),
        // The writer the kill test starts and kills (FileSafetyTests).
        .executableTarget(name: "WriteStress", dependencies: ["AutoMagicCoding"]),
        // Runs a program and reports its peak memory (`amc bench --hostile`, ResourceBoundTests).
        .executableTarget(name: "PeakMemory"),
        .testTarget(
            name: "AutoMagicCodingTests",
            dependencies: ["AutoMagicCoding", "AMCExample"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
