import ArgumentParser

/// The `multihead` command line tool (started from `Entry.swift`, which runs it on `MainLoop`).
struct MultiheadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "multihead",
        abstract: "UIKit's windows and screens on X11: list and watch monitors, drive a private X server.",
        version: multiheadVersion,
        subcommands: [Demo.self, Screens.self, Watch.self, Server.self, Run.self, Plug.self, Unplug.self, Mode.self, Screenshot.self, Windows.self, MoveWindow.self, FullscreenWindow.self, Doctor.self])
}

/// The option every command that talks to a server takes.
struct DisplayOptions: ParsableArguments {
    @Option(name: .long, help: "The X display to use (default: $DISPLAY).")
    var display: String?
}
