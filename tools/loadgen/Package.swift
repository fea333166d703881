// swift-tools-version:6.0
import PackageDescription

// The realtime load generator of `make bench` (docs/benchmarks.md): racers in
// rooms of 8 on the libwebsockets client API, one service thread, latencies
// in HdrHistogram. Its own package so the server's build stays light.
let package = Package(
    name: "loadgen",
    dependencies: [
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CLWS", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        // event_loop.c and its header are the server's (symlinks): the same loop.
        .target(name: "LoadgenShim", dependencies: ["CLWS"], linkerSettings: [.linkedLibrary("uv")]),
        .executableTarget(
            name: "loadgen",
            dependencies: ["CLWS", "LoadgenShim", .product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        // The storage benchmark of issue 6 runs the server's own storage code:
        // Sources/MindPadStorage, Sources/CLibPQ and Sources/CLibCrypto are symlinks to the
        // project's (as tools/train/bench does for recognition).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "MindPadStorage", dependencies: ["CLibPQ", "CLibCrypto", .product(name: "Logging", package: "swift-log")],
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "storagebench",
            dependencies: ["MindPadStorage", .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
