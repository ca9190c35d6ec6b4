import ArgumentParser
import Foundation
import MultiheadControl
import MultiheadTesting

extension MultiheadCommand {
    /// `multihead doctor`: what this machine has for Multihead's X servers, which kinds can start, and the
    /// Debian package for each missing piece.
    struct Doctor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Say what this machine has for Multihead's private servers (Xvfb, Xorg and its video driver ABI, Multihead's Xorg driver, xauth, EGL, Multihead's Wayland compositor with its libraries and Xwayland, the toolkits' libraries), which kinds can start (xvfb, xorg, xorg-dummy, wayland), which is the default (xorg where it can start, else xvfb) and the Debian package for each missing piece; exit 69 when the kind asked for (by default the default kind) cannot start.")

        @Flag(help: "Print one JSON object instead of text.")
        var json = false
        @Option(help: "The kind whose start decides the exit status: xvfb, xorg, xorg-dummy or wayland (default: the kind `multihead server` starts without flags: xorg where it can start, else xvfb).")
        var kind: KindArgument?

        /// A kind of server, as the pytest plugin and `--kind` name it.
        struct KindArgument: ExpressibleByArgument {
            let kind: VirtualServer.Kind
            init?(argument: String) {
                guard let kind = DoctorReport.kinds.first(where: { $0.name == argument }) else { return nil }
                self.kind = kind
            }
            static var allValueStrings: [String] { DoctorReport.kinds.map(\.name) }
        }

        @MainActor
        func run() async throws {
            try await withExitStatus {
                let report = DoctorReport.gather()
                let asked = kind?.kind ?? report.defaultKind
                if json {
                    try StandardOutput.line(Self.json(report).bytes)
                } else {
                    try StandardOutput.line(Self.text(report))
                }
                guard report.kinds.first(where: { $0.kind == asked })?.canStart == true else {
                    throw ExitCode(ExitStatus.unavailable)
                }
            }
        }

        /// The report for people: one line a piece, the driver, the kinds, and the one command to install
        /// what is missing.
        static func text(_ r: DoctorReport) -> String {
            var lines = ["multihead \(multiheadVersion)"]
            let width = (r.pieces + r.toolkits).map(\.name.count).max() ?? 0
            func row(_ p: DoctorReport.Piece) -> String {
                let name = p.name.padding(toLength: width, withPad: " ", startingAt: 0)
                guard let path = p.path else { return "  \(name)  missing: apt-get install \(p.package)  (\(p.use))" }
                return "  \(name)  \(path)" + (p.detail.map { "  (\($0))" } ?? "")
            }
            lines += r.pieces.map(row)
            if let source = r.server.abiSource { lines.append("  (Xorg's video driver ABI read from \(source))") }
            let d = r.driver
            let origin = switch d.source {
            case "prebuilt", "directory": "\(d.path ?? "") (video ABI \(d.abi ?? "?")\(Self.matching(d))), used as it is"
            case "cache": "\(d.path ?? "") (video ABI \(d.abi ?? "?")\(Self.matching(d))), built before"
            case "build": "built at first use from its embedded source, against the server's headers (xserver-xorg-dev), kept in the user's cache"
            default: "none"
            }
            lines.append("Multihead's Xorg driver: \(origin)" + (d.note.map { " — \($0)" } ?? ""))
            lines.append("Toolkits:")
            lines += r.toolkits.map { p in
                "  \(p.name.padding(toLength: width, withPad: " ", startingAt: 0))  " + (p.path.map { _ in "yes" } ?? "no (\(p.package))")
            }
            lines.append("Kinds of server:")
            let defaultKind = r.defaultKind
            for k in r.kinds {
                let name = k.kind.name.padding(toLength: 10, withPad: " ", startingAt: 0)
                let mark = k.kind == defaultKind ? " (default)" : ""
                let note = k.canStart && !k.missing.isEmpty ? " (without \(k.missing.joined(separator: ", ")): see above)" : ""
                lines.append("  \(name)  " + (k.reason.map { "cannot start\(mark): \($0)" } ?? "can start\(mark)\(note)"))
            }
            if r.defaultKind == .xvfb, let why = r.kinds.first(where: { $0.kind == .xorg })?.reason {
                lines.append("The default is xvfb, on which GTK, Qt 5, SDL, GLFW and Chromium see no hotplug: xorg \(why)")
            }
            let missing = Array(Set(r.kinds.flatMap(\.missing))).sorted()
            if !missing.isEmpty { lines.append("To install what is missing: apt-get install " + missing.joined(separator: " ")) }
            return lines.joined(separator: "\n")
        }

        /// After a module's ABI: whether it loads into the server's; nothing when either is unknown.
        static func matching(_ d: DoctorReport.Driver) -> String {
            d.abiMatches.map { $0 ? ", loads into the server's" : ", does NOT load into the server's" } ?? ""
        }

        /// The report for programs.
        static func json(_ r: DoctorReport) -> JSONText {
            func piece(_ p: DoctorReport.Piece) -> JSONText {
                .object(["name": .string(p.name), "found": .bool(p.path != nil), "path": p.path.map(JSONText.string) ?? .null,
                         "detail": p.detail.map(JSONText.string) ?? .null, "package": .string(p.package), "use": .string(p.use)])
            }
            let optional = { (s: String?) in s.map(JSONText.string) ?? .null }
            let d = r.driver
            return .object([
                "version": .string(multiheadVersion),
                "defaultKind": .string(r.defaultKind.name),
                "kinds": .array(r.kinds.map { k in
                    .object(["kind": .string(k.kind.name), "canStart": .bool(k.canStart), "default": .bool(k.kind == r.defaultKind),
                             "missing": .array(k.missing.map(JSONText.string)), "reason": optional(k.reason)])
                }),
                "components": .array(r.pieces.map(piece)),
                "xorg": .object(["version": optional(r.server.version), "videoABI": optional(r.server.abi), "videoABISource": optional(r.server.abiSource)]),
                "driver": .object(["source": .string(d.source), "path": optional(d.path), "videoABI": optional(d.abi), "note": optional(d.note),
                                   "abiMatches": d.abiMatches.map(JSONText.bool) ?? .null,
                                   "sourceHash": .string(XorgDriver.sourceHash)]),
                "toolkits": .array(r.toolkits.map(piece)),
            ])
        }
    }
}
