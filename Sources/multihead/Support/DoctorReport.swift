import Foundation
import MultiheadTesting

/// What `multihead doctor` finds on this machine: the programs and files each kind of server needs (each
/// with the Debian package that brings it), Multihead's Xorg driver and where it would come from, and
/// the toolkits' libraries. Read from files and `Xorg -version` only: no server starts, nothing compiles.
struct DoctorReport {
    /// One program, file or library, found or not.
    struct Piece {
        var name: String
        /// Where it is (a path), or nil when it is missing.
        var path: String?
        /// What else is known (a version, an ABI).
        var detail: String?
        /// The Debian package that brings it.
        var package: String
        /// What it is for, for a person.
        var use: String
    }

    /// The kinds doctor reports on, in its order: the X kinds, then the wayland kind.
    static let kinds = VirtualServer.Kind.all + [.wayland]

    /// Whether a kind of server can start here, and what it lacks.
    struct KindStatus {
        var kind: VirtualServer.Kind
        /// The Debian packages to install for it (empty when it needs none; for a kind that can start, those of
        /// the optional pieces it lacks: Xwayland on the wayland kind).
        var missing: [String]
        /// Why it cannot start (nil when it can).
        var reason: String?
        var canStart: Bool { reason == nil }
    }

    /// Where `--xorg`'s driver would come from: "directory" (`MULTIHEAD_XORG_DRIVER_DIR`), "prebuilt" (the
    /// .deb's, or the wheel's beside the CLI), "cache" (built before), "build" (built at first use),
    /// "missing" (cannot be built here).
    struct Driver {
        var source: String
        var path: String?
        var abi: String?
        var note: String?
        /// Whether that module's video ABI loads into the installed server's (nil: no module, or either unknown).
        var abiMatches: Bool?
    }

    var pieces: [Piece] = []
    var kinds: [KindStatus] = []
    var driver = Driver(source: "missing")
    var toolkits: [Piece] = []
    var server: (version: String?, abi: String?, abiSource: String?) = (nil, nil, nil)

    /// Looks at this machine.
    static func gather() -> DoctorReport {
        var report = DoctorReport()
        let which = { (name: String) in CommandLookup.which(name) }
        let xvfb = Piece(name: "Xvfb", path: which("Xvfb"), package: "xvfb", use: "the xvfb kind")
        let xkbcomp = xkbcompPiece()
        let xorgPath = XorgInstallation.serverBinary()
        if xorgPath != nil {
            let abi = XorgInstallation.serverVideoABI()
            report.server = ((try? XorgInstallation.serverVersion()) ?? nil, abi.map { "\($0.abi)" }, abi?.source)
        }
        let detail = [report.server.version.map { "version \($0)" }, report.server.abi.map { "video driver ABI \($0)" }].compactMap { $0 }
        let xorg = xorgPiece(path: xorgPath, detail: detail.isEmpty ? nil : detail.joined(separator: ", "))
        let dummy = Piece(name: "dummy driver", path: XorgInstallation.moduleDirectories.map { $0 + "/drivers/dummy_drv.so" }
                            .first(where: FileManager.default.fileExists(atPath:)), package: "xserver-xorg-video-dummy", use: "the xorg-dummy kind")
        let xauth = Piece(name: "xauth", path: which("xauth"), package: "xauth",
                          use: "scripts that read or merge cookies (the kit writes its authority files itself)")
        let egl = Piece(name: "EGL", path: library("libEGL.so.1"), package: "libegl1", use: "GLView and EGL apps")
        let mesa = Piece(name: "Mesa EGL", path: library("libEGL_mesa.so.0"), package: "libegl-mesa0", use: "EGL on the kit's servers (llvmpipe)")
        let cairo = Piece(name: "cairo", path: library("libcairo.so.2"), package: "libcairo2", use: "drawing views (the demo, apps)")
        let openbox = Piece(name: "openbox", path: WindowManager.binary, package: "openbox",
                            use: "--wm and the marker's wm=True (a window manager on the X kinds)")
        report.pieces = [xvfb, xkbcomp, xorg, dummy, xauth, openbox, egl, mesa, cairo]
        let serverVersion = report.server.version
        report.driver = driverSource(hasServer: xorgPath != nil, serverVersion: { serverVersion })
        if let module = report.driver.path, let abi = XorgInstallation.moduleABI(atPath: module),
           let server = XorgInstallation.serverVideoABI()?.abi {
            report.driver.abiMatches = abi.loads(into: server)
        }
        report.toolkits = [
            ("GTK 3", "libgtk-3.so.0", "libgtk-3-0"), ("GTK 4", "libgtk-4.so.1", "libgtk-4-1"), ("Qt 5", "libQt5Gui.so.5", "libqt5gui5"),
            ("Qt 6", "libQt6Gui.so.6", "libqt6gui6"), ("SDL 2", "libSDL2-2.0.so.0", "libsdl2-2.0-0"), ("GLFW", "libglfw.so.3", "libglfw3"),
        ].map { Piece(name: $0.0, path: library($0.1), package: $0.2, use: "apps of that toolkit") }
            + [Piece(name: "Chromium", path: which("chromium"), package: "chromium", use: "web apps (getScreenDetails)")]

        let compositor = compositorPiece()
        let libraries = compositor.path.map(compositorLibraries) ?? []
        let xwayland = Piece(name: "Xwayland", path: FileManager.default.isExecutableFile(atPath: WaylandServer.xwaylandPath) ? WaylandServer.xwaylandPath : nil,
                             package: "xwayland", use: "X11 clients on the wayland kind (without it, Wayland clients only)")
        report.pieces += [compositor] + libraries + [xwayland]
        var wayland = status(.wayland, [compositor] + libraries)
        if wayland.canStart, xwayland.path == nil { wayland.missing = [xwayland.package] }
        report.kinds = [
            status(.xvfb, [xvfb, xkbcomp]),
            xorgStatus(xkbcomp: xkbcomp, xorg: xorg, driver: report.driver),
            status(.xorgDummy, [xkbcomp, xorg, dummy]),
            wayland,
        ]
        return report
    }

    /// Multihead's Wayland compositor, where the kit would run it from.
    static func compositorPiece() -> Piece {
        let found: String?
        do { found = try WaylandServer.compositorBinary() } catch { found = nil }
        return Piece(name: "compositor", path: found, package: "multihead", use: "the wayland kind (multihead-compositor)")
    }

    /// The shared libraries the compositor needs that the dynamic loader does not find (`ldd`'s "not
    /// found"), each as a missing piece with the Debian package that brings it; none when all are found.
    /// The .deb carries wlroots 0.15 beside the compositor and the wheel carries all of them, so what is
    /// missing is one of the .deb's Recommends (installed without them: `apt-get install --no-install-recommends`).
    static func compositorLibraries(_ compositor: String) -> [Piece] {
        guard let ldd = CommandLookup.which("ldd"), let run = try? ChildProcess.spawn(ldd, [compositor]).collect(), run.status == 0
        else { return [] }
        let packages = compositorLibraryPackages
        return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: \.isWhitespace)
            guard line.contains("not found"), let soname = words.first.map(String.init) else { return nil }
            return Piece(name: soname, path: nil, package: packages[soname] ?? "the package that has \(soname)",
                         use: "the compositor (the wayland kind)")
        }
    }

    /// The Debian package (12 and 13 name them alike) of each library the compositor and wlroots 0.15 link.
    static let compositorLibraryPackages = [
        "libwlroots.so.10": "libwlroots10", "libwayland-server.so.0": "libwayland-server0",
        "libwayland-client.so.0": "libwayland-client0", "libxkbcommon.so.0": "libxkbcommon0", "libpixman-1.so.0": "libpixman-1-0",
        "libinput.so.10": "libinput10", "libseat.so.1": "libseat1", "libdrm.so.2": "libdrm2", "libgbm.so.1": "libgbm1",
        "libEGL.so.1": "libegl1", "libGLESv2.so.2": "libgles2", "libudev.so.1": "libudev1", "libxcb.so.1": "libxcb1",
        "libxcb-composite.so.0": "libxcb-composite0", "libxcb-dri3.so.0": "libxcb-dri3-0", "libxcb-icccm.so.4": "libxcb-icccm4",
        "libxcb-present.so.0": "libxcb-present0", "libxcb-render.so.0": "libxcb-render0", "libxcb-render-util.so.0": "libxcb-render-util0",
        "libxcb-res.so.0": "libxcb-res0", "libxcb-shm.so.0": "libxcb-shm0", "libxcb-xfixes.so.0": "libxcb-xfixes0",
        "libxcb-xinput.so.0": "libxcb-xinput0", "libz.so.1": "zlib1g",
    ]

    /// Whether a kind can start with these pieces: the packages of those missing, and why not.
    static func status(_ kind: VirtualServer.Kind, _ needs: [Piece], extra: String? = nil) -> KindStatus {
        let missing = needs.filter { $0.path == nil }
        let reasons = missing.map { "\($0.name) (\($0.package))" } + (extra.map { [$0] } ?? [])
        return KindStatus(kind: kind, missing: missing.map(\.package),
                          reason: reasons.isEmpty ? nil : "needs " + reasons.joined(separator: ", "))
    }

    /// Whether Xorg with Multihead's driver (the xorg kind) can start: xkbcomp, Xorg, and a driver that
    /// loads into it or can be built for it. What `multihead doctor` says of the kind, and what decides
    /// the default kind (`DefaultKind`).
    static func xorgStatus(xkbcomp: Piece, xorg: Piece, driver: Driver) -> KindStatus {
        let lacksDriver = driver.source == "missing" && xorg.path != nil
        var status = status(.xorg, [xkbcomp, xorg], extra: lacksDriver ? "Multihead's Xorg driver (\(driver.note ?? "cannot be built"))" : nil)
        if lacksDriver {
            status.missing += ["xserver-xorg-dev", "gcc", "pkg-config"].filter { package in driver.note?.contains(package) == true }
        }
        return status
    }

    /// xkbcomp, as every kind needs it.
    static func xkbcompPiece() -> Piece {
        Piece(name: "xkbcomp", path: CommandLookup.which("xkbcomp"), package: "x11-xkb-utils", use: "every kind (the server compiles its keymap)")
    }

    /// Xorg, as the Xorg kinds need it.
    static func xorgPiece(path: String?, detail: String? = nil) -> Piece {
        Piece(name: "Xorg", path: path, detail: detail, package: "xserver-xorg-core", use: "the xorg and xorg-dummy kinds")
    }

    /// The kind `multihead server` and `run` start without a flag, as `DefaultKind` decides it from this report.
    var defaultKind: VirtualServer.Kind {
        DefaultKind.decide(xorg: kinds.first { $0.kind == .xorg } ?? KindStatus(kind: .xorg, missing: [], reason: "unknown")).kind
    }

    /// Where the `xorg` kind's driver would come from, found as the kit finds it but building nothing.
    /// `serverVersion` (`Xorg -version`, a process) is asked only when it decides: no prebuilt or built driver.
    static func driverSource(hasServer: Bool, serverVersion: () -> String?) -> Driver {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["MULTIHEAD_XORG_DRIVER_DIR"], !given.isEmpty {
            let module = given + "/drivers/multihead_drv.so"
            return FileManager.default.fileExists(atPath: module)
                ? Driver(source: "directory", path: module, abi: XorgInstallation.moduleABI(atPath: module).map { "\($0)" }, note: "MULTIHEAD_XORG_DRIVER_DIR")
                : Driver(source: "missing", path: nil, abi: nil, note: "\(module) (MULTIHEAD_XORG_DRIVER_DIR) does not exist")
        }
        let why: String?
        switch XorgDriver.prebuilt() {
        case .usable(_, let module, let abi): return Driver(source: "prebuilt", path: module, abi: "\(abi)", note: nil)
        case .unusable(let reason): why = reason
        }
        guard hasServer else { return Driver(source: "missing", path: nil, abi: nil, note: "no Xorg") }
        // The kit's fallback: a build for this server, kept in the user's cache.
        let pkgConfig = CommandLookup.which("pkg-config")
        let headers = pkgConfig.flatMap { try? ChildProcess.spawn($0, ["--modversion", "xorg-server"]).collect() }
            .flatMap { $0.0 == 0 ? String(decoding: $0.1, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil }
        let caches = [environment["XDG_CACHE_HOME"].map { $0 + "/multihead" }, environment["HOME"].map { $0 + "/.cache/multihead" }]
            .compactMap { $0 }.filter { $0.hasPrefix("/") }
        if let headers {
            for cache in caches {
                let module = cache + "/xorg-driver-\(headers)-\(XorgDriver.sourceHash)/drivers/multihead_drv.so"
                if FileManager.default.fileExists(atPath: module) {
                    return Driver(source: "cache", path: module, abi: XorgInstallation.moduleABI(atPath: module).map { "\($0)" }, note: why)
                }
            }
        }
        var lacking: [String] = []
        if pkgConfig == nil { lacking.append("pkg-config") }
        if headers == nil { lacking.append("xserver-xorg-dev") }
        if CommandLookup.which("cc") == nil && CommandLookup.which("gcc") == nil { lacking.append("gcc") }
        if let headers, let serverVersion = serverVersion(), !XorgDriver.sameRelease(headers, serverVersion) {
            return Driver(source: "missing", path: nil, abi: nil,
                          note: "the headers (xserver-xorg-dev) are \(headers), the server is \(serverVersion): install the same version of both")
        }
        guard lacking.isEmpty else {
            return Driver(source: "missing", path: nil, abi: nil, note: "no prebuilt driver fits, and building one needs " + lacking.joined(separator: ", "))
        }
        return Driver(source: "build", path: nil, abi: nil, note: why)
    }

    /// A shared library in the system's library folders, by its soname.
    static func library(_ soname: String) -> String? {
#if arch(arm64)
        let triplet = "aarch64-linux-gnu"
#else
        let triplet = "x86_64-linux-gnu"
#endif
        return ["/usr/lib/\(triplet)", "/lib/\(triplet)", "/usr/lib64", "/usr/lib"].map { $0 + "/" + soname }
            .first(where: FileManager.default.fileExists(atPath:))
    }
}

extension CommandLookup {
    /// The executable `name` on PATH, else in /usr/bin or /usr/local/bin (as the kit looks for servers).
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"]
        if case .found(let p) = find(name, path: path) { return p }
        if case .found(let p) = find(name, path: "/usr/bin:/usr/local/bin") { return p }
        return nil
    }
}
