// swift-tools-version:6.0
import PackageDescription

// Layers (see docs/architecture.md, docs/decisions/0004-module-layers.md):
// rules, recognition and HTTP/1.1 are pure Swift; storage wraps libpq;
// transport is the only target that imports libwebsockets (and the shims);
// the server (realtime hub, routes, cluster, composition) sees no C at all;
// `mindpad` parses arguments and wires.
let package = Package(
    name: "MindPad",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mindpad", targets: ["mindpad"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    ],
    targets: [
        // C libraries, imported through pkg-config. Debian names the packages.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // What Swift cannot import from libwebsockets (LWS_PRE, variadic lwsl_*).
        // …and libuv, the epoll loop lws can run on (MINDPAD_EVENT_LOOP).
        .target(name: "CMindPadShims", dependencies: ["CLibWebSockets"],
                linkerSettings: [.linkedLibrary("uv")]),

        // Pure layers. MindPadJSON is the one JSON reader and writer (the
        // wire, the recognizer's input lines, the model header).
        .target(name: "MindPadJSON"),
        .target(name: "MindPadRules", dependencies: ["MindPadJSON"]),
        // Optimized in debug builds too: `make test` runs the debug build, and
        // its recognition tests and its server's live readings (in every e2e
        // suite) are arithmetic loops that -Onone makes many times slower.
        .target(
            name: "MindPadRecognition",
            dependencies: ["MindPadJSON"],
            resources: [.copy("Resources")],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        // HTTP/1.1 as bytes: the request parser, framing, targets, the
        // request/response values and their wire form. No C, no I/O.
        .target(name: "MindPadHTTP", dependencies: ["MindPadJSON"]),

        // I/O layers.
        .target(
            name: "MindPadStorage",
            dependencies: ["CLibPQ", "CLibCrypto", .product(name: "Logging", package: "swift-log")]
        ),
        // libwebsockets: the service loop, sockets, WebSocket frames, timers.
        // The only target that imports CLibWebSockets and CMindPadShims.
        .target(
            name: "MindPadTransport",
            dependencies: ["CLibWebSockets", "CMindPadShims", "MindPadHTTP", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "MindPadServer",
            dependencies: [
                "MindPadHTTP", "MindPadTransport",
                "MindPadJSON", "MindPadRules", "MindPadStorage", "MindPadRecognition",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "mindpad",
            dependencies: [
                "MindPadServer", "MindPadStorage", "MindPadRecognition",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `make bench` only: decode time per client message, three decoders
        // side by side (docs/benchmarks.md, "Wire").
        .executableTarget(name: "wirebench", dependencies: ["MindPadServer", "MindPadJSON"]),

        .testTarget(name: "MindPadJSONTests", dependencies: ["MindPadJSON", "MindPadRules"]),
        .testTarget(name: "MindPadRulesTests", dependencies: ["MindPadRules", "MindPadJSON"]),
        .testTarget(name: "MindPadRecognitionTests", dependencies: ["MindPadRecognition", "MindPadJSON", "MindPadRules"]),
        .target(name: "MindPadTestSupport", dependencies: ["MindPadStorage", "MindPadRules", "MindPadJSON"], path: "Tests/MindPadTestSupport"),
        .testTarget(name: "MindPadStorageTests", dependencies: ["MindPadStorage", "MindPadTestSupport"]),
        .testTarget(
            name: "MindPadServerTests",
            dependencies: ["MindPadServer", "MindPadHTTP", "MindPadTransport", "MindPadStorage", "MindPadRules",
                           "MindPadRecognition", "MindPadTestSupport"]
        ),
    ]
)
