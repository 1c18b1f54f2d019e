// swift-tools-version:6.0
// libFuzzer targets for AutoMagicCoding's entry points that take outside data. A package of its
// own beside the library (which keeps zero dependencies and an untouched default build); build
// and run with the scripts here (README: Fuzzing):
//   Fuzz/build.sh                      release build, libFuzzer + AddressSanitizer
//   Fuzz/run.sh FuzzJSON 60            a campaign of 60 seconds on the checked-in corpus
//   Fuzz/replay.sh FuzzJSON FILE...    replays inputs through a target (a finding, say)
import PackageDescription

let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]  // libFuzzer owns main

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "AutoMagicCoding", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "AutoMagicCoding", package: "AutoMagicCoding")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzXML", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzBinary", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzObjects", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzConfig", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzStyles", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzStrings", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzLenient", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzGraphs", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzVersions", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzConfigLayers", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzEdits", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzMarkupReader", dependencies: ["FuzzSupport"], swiftSettings: harness),
        .executableTarget(name: "FuzzMarkupBuilder", dependencies: ["FuzzSupport"], swiftSettings: harness),
    ],
    swiftLanguageModes: [.v6]
)
