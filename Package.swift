// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AutoMagicCoding",
    products: [
        .library(name: "AutoMagicCoding", targets: ["AutoMagicCoding"]),
        .executable(name: "amc", targets: ["amc"]),
    ],
    targets: [
        .target(name: "AutoMagicCoding"),
        .target(name: "AMCExample", dependencies: ["AutoMagicCoding"]),
        .executableTarget(name: "amc", dependencies: ["AutoMagicCoding", "AMCExample"]),
        .testTarget(
            name: "AutoMagicCodingTests",
            dependencies: ["AutoMagicCoding", "AMCExample"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
