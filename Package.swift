// swift-tools-version:6.2
// Multihead is MIT-licensed (LICENSE), the licence of the Xorg code it sits beside.
import PackageDescription

let package = Package(
    name: "Multihead",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Multihead", targets: ["Multihead"]),
        .library(name: "MultiheadX11", targets: ["MultiheadX11"]),
        .library(name: "MultiheadGL", targets: ["MultiheadGL"]),
        .library(name: "MultiheadInMemory", targets: ["MultiheadInMemory"]),
        .library(name: "MultiheadTesting", targets: ["MultiheadTesting"]),
        .library(name: "MultiheadTestingTraits", targets: ["MultiheadTestingTraits"]),
        .library(name: "MultiheadControl", targets: ["MultiheadControl"]),
        .executable(name: "multihead", targets: ["multihead"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // `swift package generate-documentation`: the DocC catalogs of the library modules.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CXlib",
            pkgConfig: "x11 x11-xcb xcb-randr xrandr xext xtst",
            providers: [.apt(["libx11-dev", "libx11-xcb-dev", "libxcb-randr0-dev", "libxrandr-dev", "libxext-dev", "libxtst-dev"])]
        ),
        // cairo's headers only: the library is loaded on first drawing (see its shim), so no pkg-config link.
        .systemLibrary(
            name: "CCairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // EGL and OpenGL ES 3 as their headers declare them (libegl-dev, libgles-dev), each function calling
        // glvnd's through a table filled on first use (dlopen): only processes that draw GL load them.
        .target(name: "CEGL"),
        .target(
            name: "Multihead",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // The in-memory backend for pure model tests, apart from the model (swift-nio's NIOEmbedded).
        .target(
            name: "MultiheadInMemory",
            dependencies: ["Multihead"]
        ),
        // What a process needs whatever it shows: a lock, its signals, its temporary files, a monotonic
        // clock, a folder's entries. The X11 backend, the kit and the control socket share it; no X here.
        .target(name: "MultiheadProcess"),
        .target(
            name: "MultiheadX11",
            dependencies: ["Multihead", "MultiheadProcess", "CXlib", "CCairo", .product(name: "Logging", package: "swift-log")]
        ),
        // `GLView`: OpenGL ES drawn offscreen with EGL and composited with the other views.
        .target(
            name: "MultiheadGL",
            dependencies: ["Multihead", "MultiheadX11", "CEGL", "CProcessControl", .product(name: "Logging", package: "swift-log")]
        ),
        // Changing an X server as a person or a cable would, and reading and resetting its state: what the
        // kit, the CLI and the control socket share, and apps do not link (swift-nio's NIOTestUtils).
        .target(
            name: "MultiheadServerControl",
            dependencies: ["Multihead", "MultiheadX11", "MultiheadProcess", "CXlib"]
        ),
        // Multihead's Xorg driver source (Driver/), embedded so that a copied CLI still builds it.
        .target(name: "CDriverSource"),
        // prctl for the kit's processes (a parent-death signal, a subreaper): variadic, so C.
        .target(name: "CProcessControl"),
        .target(
            name: "MultiheadTesting",
            dependencies: ["Multihead", "MultiheadX11", "MultiheadProcess", "MultiheadServerControl", "CXlib", "CDriverSource", "CProcessControl"]
        ),
        // The Swift Testing trait `.virtualServer(monitors:)`: its own module, so that only tests link Testing.
        .target(
            name: "MultiheadTestingTraits",
            dependencies: ["Multihead", "MultiheadTesting"]
        ),
        // The control protocol: each request's one declaration (the CLI's arguments and the socket's fields,
        // checked by its `validate()`), the error codes with their statuses, the JSON contract, the socket's
        // plumbing and its client. No X and no kit: a Swift client of the socket needs this module alone.
        .target(
            name: "MultiheadControl",
            dependencies: ["Multihead", "MultiheadProcess", "CProcessControl",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The service behind the socket: the requests run on the kit's servers (`perform`, the compositor's
        // commands), the lease session, the X and Wayland services. Above the protocol and the kit; the CLI
        // and the tests use it, no product offers it.
        .target(
            name: "MultiheadService",
            dependencies: ["Multihead", "MultiheadX11", "MultiheadProcess", "MultiheadServerControl", "MultiheadTesting", "MultiheadControl",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "multihead",
            dependencies: [
                "Multihead", "MultiheadX11", "MultiheadGL", "MultiheadProcess", "MultiheadServerControl", "MultiheadTesting", "MultiheadControl", "MultiheadService", "CProcessControl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The raw C/Xlib baseline that every benchmark runs beside the Swift API.
        .executableTarget(
            name: "XlibBaseline",
            dependencies: ["CXlib"],
            // Its text peer draws with cairo directly (the package reaches cairo through dlopen); its GL peer
            // with EGL and OpenGL ES.
            linkerSettings: [.linkedLibrary("cairo"), .linkedLibrary("EGL"), .linkedLibrary("GLESv2")]
        ),
        .executableTarget(
            name: "multihead-bench",
            dependencies: ["Multihead", "MultiheadInMemory", "MultiheadX11", "MultiheadGL", "MultiheadServerControl", "MultiheadTesting"]
        ),
        .testTarget(name: "MultiheadTests", dependencies: ["Multihead", "MultiheadInMemory"]),
        .testTarget(name: "MultiheadX11Tests", dependencies: ["Multihead", "MultiheadInMemory", "MultiheadX11", "MultiheadProcess", "MultiheadServerControl", "MultiheadTesting", "MultiheadTestingTraits"]),
        .testTarget(name: "MultiheadGLTests", dependencies: ["Multihead", "MultiheadGL", "MultiheadX11", "MultiheadTesting"]),
        .testTarget(name: "MultiheadControlTests", dependencies: ["Multihead", "MultiheadControl", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "multiheadTests", dependencies: ["Multihead", "MultiheadProcess", "MultiheadServerControl", "MultiheadTesting", "MultiheadControl", "MultiheadService", "multihead"]),
    ]
)
