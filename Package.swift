// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Guardian",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ingest", targets: ["ingest"]),
        .executable(name: "geofence", targets: ["geofence"]),
        .executable(name: "predictor", targets: ["predictor"]),
        .executable(name: "notifier", targets: ["notifier"]),
        .executable(name: "timeline", targets: ["timeline"]),
        .executable(name: "command-router", targets: ["command-router"]),
        .executable(name: "guardian-mcp", targets: ["guardian-mcp"]),
        .executable(name: "console", targets: ["console"]),
        .executable(name: "guardian", targets: ["guardian"]),
        .executable(name: "guardian-all", targets: ["guardian-all"]),
        .executable(name: "guardian-bench", targets: ["guardian-bench"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "GuardianShared", targets: ["GuardianShared"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // System libraries
        .systemLibrary(
            name: "CMosquitto", path: "Shared/CMosquitto", pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(
            name: "CSVM", path: "Shared/CSVM",
            providers: [.apt(["libsvm-dev"])]),
        .systemLibrary(
            name: "COpenSSL", path: "Shared/COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // Shared libraries
        .target(
            name: "MQTT", dependencies: [
                "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ], path: "Shared/MQTT", swiftSettings: strict),
        .target(
            name: "GuardianShared", dependencies: [
                "MQTT", "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ], path: "Shared/GuardianShared", swiftSettings: strict),
        // The broker's accounts and roles (dynamic-security plugin): first-start setup and enrolment.
        .target(
            name: "BrokerAccess", dependencies: ["MQTT", "COpenSSL"],
            path: "Shared/BrokerAccess", swiftSettings: strict),

        // Services: each a library a test can run in-process, and a thin executable.
        .target(
            name: "GuardianIngest", dependencies: [
                "GuardianShared",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Services/Ingest/Sources", swiftSettings: strict),
        .executableTarget(
            name: "ingest", dependencies: ["GuardianIngest"],
            path: "Services/Ingest/Main", swiftSettings: strict),
        .target(
            name: "GuardianGeofence", dependencies: ["GuardianShared"],
            path: "Services/Geofence/Sources", swiftSettings: strict),
        .executableTarget(
            name: "geofence", dependencies: ["GuardianGeofence"],
            path: "Services/Geofence/Main", swiftSettings: strict),
        .target(
            name: "GuardianPredictor", dependencies: ["GuardianShared"],
            path: "Services/Predictor/Sources", swiftSettings: strict),
        .executableTarget(
            name: "predictor", dependencies: ["GuardianPredictor"],
            path: "Services/Predictor/Main", swiftSettings: strict),
        .target(
            name: "GuardianTimeline", dependencies: [
                "GuardianShared", "CSVM", .product(name: "GRDB", package: "GRDB.swift"),
            ], path: "Services/Timeline/Sources", swiftSettings: strict),
        // Labelled synthetic days and their scoring: `guardian timeline evaluate` and the tests, not the service.
        .target(
            name: "GuardianTimelineEvaluation", dependencies: ["GuardianTimeline"],
            path: "Services/Timeline/Evaluation", swiftSettings: strict),
        .executableTarget(
            name: "timeline", dependencies: ["GuardianTimeline"],
            path: "Services/Timeline/Main", swiftSettings: strict),
        .target(
            name: "GuardianCommandRouter", dependencies: ["GuardianShared"],
            path: "Services/CommandRouter/Sources", swiftSettings: strict),
        .executableTarget(
            name: "command-router", dependencies: ["GuardianCommandRouter"],
            path: "Services/CommandRouter/Main", swiftSettings: strict),
        .target(
            name: "GuardianMCP",
            dependencies: [
                "GuardianShared", .product(name: "MCP", package: "swift-sdk"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/MCP/Sources", swiftSettings: strict),
        .executableTarget(
            name: "guardian-mcp", dependencies: ["GuardianMCP"],
            path: "Services/MCP/Main", swiftSettings: strict),
        // The family console: a parent's web app, connected to the broker as that parent.
        .target(
            name: "GuardianConsole", dependencies: [
                "GuardianShared", "GuardianTimeline", "MQTT",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/Console/Sources", resources: [.embedInCode("Templates")], swiftSettings: strict),
        .executableTarget(
            name: "console", dependencies: ["GuardianConsole"],
            path: "Services/Console/Main", swiftSettings: strict),
        .target(
            name: "GuardianNotifier", dependencies: ["GuardianShared", "GuardianCommandRouter"],
            path: "Services/Notifier/Sources", swiftSettings: strict),
        .executableTarget(
            name: "notifier", dependencies: ["GuardianNotifier"],
            path: "Services/Notifier/Main", swiftSettings: strict),
        .target(
            name: "GuardianCLI", dependencies: [
                "GuardianShared", "GuardianPredictor", "GuardianTimeline", "GuardianTimelineEvaluation", "GuardianCommandRouter", "BrokerAccess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Services/CLI/Sources", swiftSettings: strict),
        .executableTarget(
            name: "guardian", dependencies: ["GuardianCLI"],
            path: "Services/CLI/Main", swiftSettings: strict),
        // The nine programs above in one executable, picked by the name it is run as: what the image ships.
        .executableTarget(
            name: "guardian-all", dependencies: [
                "GuardianIngest", "GuardianGeofence", "GuardianPredictor", "GuardianTimeline", "GuardianCommandRouter", "GuardianNotifier",
                "GuardianConsole", "GuardianMCP", "GuardianCLI",
            ], path: "Services/All", swiftSettings: strict),

        // Test and benchmark support: a real mosquitto on a free loopback port.
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        .target(
            name: "GuardianTestSupport", dependencies: [
                "CSpawn", "GuardianShared", "BrokerAccess", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Support", exclude: ["fake_llm_server.py"], swiftSettings: strict),
        .executableTarget(
            name: "guardian-bench", dependencies: [
                "GuardianTestSupport", "GuardianIngest", "GuardianGeofence", "GuardianPredictor", "GuardianNotifier", "GuardianTimeline", "GuardianCommandRouter", "MQTT",
                "BrokerAccess", "GuardianTimelineEvaluation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ], path: "Benchmarks", swiftSettings: strict),

        .testTarget(
            name: "SharedTests", dependencies: ["GuardianShared", "GuardianTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/SharedTests", swiftSettings: strict),
        .testTarget(
            name: "MQTTTests", dependencies: ["MQTT", "CMosquitto", "GuardianTestSupport"],
            path: "Tests/MQTTTests", swiftSettings: strict),
        .testTarget(
            name: "GeofenceTests", dependencies: ["GuardianGeofence", "GuardianTestSupport"],
            path: "Tests/GeofenceTests", swiftSettings: strict),
        .testTarget(
            name: "TimelineTests", dependencies: ["GuardianTimeline", "GuardianTimelineEvaluation", "GuardianTestSupport"],
            path: "Tests/TimelineTests", swiftSettings: strict),
        .testTarget(
            name: "CommandRouterTests", dependencies: ["GuardianCommandRouter", "GuardianTestSupport"],
            path: "Tests/CommandRouterTests", exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "MCPTests", dependencies: [
                "GuardianCommandRouter", "GuardianMCP", "GuardianTestSupport", .product(name: "MCP", package: "swift-sdk"),
            ],
            path: "Tests/MCPTests", exclude: ["mcp_client_check.py", "requirements.txt"], swiftSettings: strict),
        .testTarget(
            name: "FaultTests", dependencies: [
                "GuardianShared", "GuardianIngest", "GuardianCommandRouter", "GuardianTestSupport", "BrokerAccess",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FaultTests", swiftSettings: strict),
        .testTarget(
            name: "HostileInputTests", dependencies: [
                "GuardianIngest", "GuardianGeofence", "GuardianPredictor", "GuardianTimeline", "GuardianCommandRouter", "GuardianNotifier",
                "GuardianTestSupport",
            ], path: "Tests/HostileInputTests", swiftSettings: strict),
        .testTarget(
            name: "NotifierTests", dependencies: ["GuardianNotifier", "GuardianCommandRouter", "GuardianTestSupport"],
            path: "Tests/NotifierTests", swiftSettings: strict),
        .testTarget(
            name: "PredictorTests", dependencies: ["GuardianPredictor", "GuardianTestSupport"],
            path: "Tests/PredictorTests", swiftSettings: strict),
        .testTarget(
            name: "PrivacyTests", dependencies: [
                "GuardianIngest", "GuardianGeofence", "GuardianPredictor", "GuardianTimeline", "GuardianCommandRouter", "GuardianNotifier",
                "GuardianTestSupport", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], path: "Tests/PrivacyTests", swiftSettings: strict),
        .testTarget(
            name: "ConsoleTests", dependencies: [
                "GuardianConsole", "GuardianIngest", "GuardianTimeline", "GuardianCommandRouter", "GuardianNotifier",
                "GuardianTestSupport", "BrokerAccess",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], path: "Tests/ConsoleTests", exclude: ["console_browser_check.py", "requirements.txt"], swiftSettings: strict),
        .testTarget(
            name: "IngestTests", dependencies: ["GuardianIngest", "GuardianTestSupport"],
            path: "Tests/IngestTests", swiftSettings: strict),
    ]
)
