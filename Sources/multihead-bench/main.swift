// Scripts/bench: each benchmark runs the Swift API and the raw C/Xlib baseline (XlibBaseline) on the same
// work in the same run, and reports the ratio; these machines are noisy, ratios less so.
import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

@MainActor
func main() async throws {
    let only = CommandLine.arguments.dropFirst().first
    if only == "soak-documented" {
        return try await soakDocumented(tests: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 10_000)
    }
    if only == "documented-parts" {
        return try await documentedParts(tests: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 100)
    }
    if only == "documented" {
        // The documented test's rows alone (also in the start group).
        print("| benchmark | Swift | raw C | ratio |")
        print("|---|---|---|---|")
        return try await benchDocumentedTest()
    }
    if only == "reread" {
        // The full re-read's rows alone (also in the x11 group), N reads a side (profiling: a large N).
        print("| benchmark | Swift | raw C | ratio |")
        print("|---|---|---|---|")
        return try await benchFullRead(n: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 2000)
    }
    if only == "soak" {
        return try await soak(cycles: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1000)
    }
    print("| benchmark | Swift | raw C | ratio |")
    print("|---|---|---|---|")
    if only == nil || only == "x11" {
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1920x1080+0+0", primary: true), .init("EXT-1", "1280x720+1920+0"), .init("EXT-2", "1024x768+3200+0"),
        ])
        defer { server.stop() }
        try benchScreens(server)
        try benchHotplug(server)
        try benchScreenshot(server)
        // The CLI as Scripts/bench built it (static Swift standard library), else the one beside this program.
        let cli = ProcessInfo.processInfo.environment["MULTIHEAD_CLI"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        try benchWatchLine(server, cli: cli)
        try benchCLI(server, cli: cli)
        try await benchFullRead()
    }
    if only == "cli" {
        // The CLI's start alone (the x11 group's `screens --json` rows, on the same layout), for each CLI
        // named after `cli` in turn, else MULTIHEAD_CLI: the .deb's installed /usr/bin/multihead beside the
        // release build, in one run.
        let server = try await VirtualServer.start(monitors: [
            .init("MAIN", "1920x1080+0+0", primary: true), .init("EXT-1", "1280x720+1920+0"), .init("EXT-2", "1024x768+3200+0"),
        ])
        defer { server.stop() }
        let named = Array(CommandLine.arguments.dropFirst(2))
        let clis = named.isEmpty ? [ProcessInfo.processInfo.environment["MULTIHEAD_CLI"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path] : named
        for cli in clis { try benchCLI(server, cli: cli, named: named.isEmpty ? "multihead" : cli) }
    }
    if only == nil || only == "x11" || only == "start" {
        try await benchServerStart()
        try await benchDocumentedTest()
        let cli = ProcessInfo.processInfo.environment["MULTIHEAD_CLI"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multihead").path
        try await benchXorgServerStart(cli: cli)
    }
    if only == nil || only == "present" {
        // A second monitor holds the C baselines' windows that run in lock step beside the Swift side's.
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true),
                                                              .init("SIDE", "1920x1080+1920+0")])
        defer { server.stop() }
        // A second argument picks rows by words of their function's name, comma-separated (`present
        // animation`: profiling; `present push,animation`: one row after another).
        let picks = CommandLine.arguments.dropFirst(2).first.map { $0.lowercased().split(separator: ",") }
        func wanted(_ name: String) -> Bool { picks.map { $0.contains { name.lowercased().contains($0) } } ?? true }
        if wanted("createWindows") { try benchCreateWindows(server, count: 1000) }
        if wanted("push") { try benchPush(server) }
        if wanted("labelTick") {
            try benchLabelTick(server)
            try benchLabelTick(server, scale: 2)
        }
        if wanted("oneOfMany") { try benchOneOfMany(server) }
        if wanted("animation") { try await benchAnimation(server) }
        if wanted("memory") { try benchMemory(server) }
        if wanted("displayLink") { try await benchDisplayLink(server) }
    }
    if only == nil || only == "gl" {
        let server = try await VirtualServer.start(monitors: [.init("MAIN", "1920x1080+0+0", primary: true)])
        defer { server.stop() }
        let pick = CommandLine.arguments.dropFirst(2).first
        if pick == nil || pick == "one" { try await benchGL(server, width: 1920, height: 1080, frames: 300, count: 1) }
        if pick == nil || pick == "ten" { try await benchGL(server, width: 480, height: 270, frames: 300, count: 10) }
    }
    if only == nil || only == "model" {
        for n in [1_000, 10_000, 100_000] { try benchStacking(windows: n) }
        for (v, d) in [(100, 2), (1_000, 3), (10_000, 4)] { try benchHitTest(views: v, depth: d) }
    }
}

// The main thread runs the main queue and the frames (MainLoop), as the demo's does.
Task { @MainActor in
    do {
        try await main()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("multihead-bench: \(error)\n".utf8))
        exit(1)
    }
}
MainLoop.run()
