import ArgumentParser
import Foundation
import Multihead
import MultiheadServerControl
import MultiheadTesting
import MultiheadX11
@testable import multihead
import MultiheadControl
import MultiheadService
import Testing

/// docs/control-socket.md is the contract: its tables of requests and error codes are the code's.
@Suite("The control socket's contract")
struct ControlContractTests {
    /// The page's text.
    static func page() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/control-socket.md"), encoding: .utf8)
    }

    /// The rows of the first table after `heading`: each row's cells, the header and rule left out.
    static func table(after heading: String, in text: String) throws -> [[String]] {
        let start = try #require(text.range(of: heading))
        var rows: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            guard line.hasPrefix("|") else {
                if rows.isEmpty { continue } else { break }
            }
            rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return Array(rows.dropFirst(2))
    }

    /// The names in backquotes in a cell.
    static func quoted(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("the error table lists every code the server sends, with its status, and nothing else")
    func errorTable() throws {
        var documented: [String: Int32] = [:]
        for row in try Self.table(after: "## Error codes", in: Self.page()) {
            let status = try #require(Int32(row[1]), "status \(row[1])")
            for code in Self.quoted(row[0]) {
                #expect(documented[code] == nil, "\(code) twice")
                documented[code] = status
            }
        }
        let coded = Dictionary(uniqueKeysWithValues: ControlErrorCode.allCases.map { ($0.rawValue, $0.status) })
        #expect(documented == coded)
    }

    @Test("each error the commands and the socket can meet becomes a code of the table, with the table's status")
    func errorsBecomeCodes() {
        let errors: [any Error] = [
            X11Error.cannotOpenDisplay(":9"), X11Error.connectionLost(":9"), X11Error.notResponding(":9"),
            X11Error.missingExtension(display: ":9", name: "RANDR", needed: "1.5"),
            X11Error.protocolError(display: ":9", request: "X", error: "BadValue", code: 2),
            X11Error.refused(display: ":9", request: "X", status: 1),
            X11Error.unsupportedVisual(display: ":9", depth: 8, visualClass: "PseudoColor"),
            ScreenError.disconnected("A"), ScreenError.modeNotAvailable(ScreenMode(width: 1, height: 1), screen: "A"),
            ScreenError.noSuchScreen("A"), ScreenError.refused(screen: "A", reason: "no"),
            ServerControlError.invalidMonitor("x"), ServerControlError.invalidInput("x"),
            VirtualServerError.notInstalled(binary: "Xvfb", package: "xvfb"), VirtualServerError.didNotStart(binary: "Xvfb", log: ""),
            VirtualServerError.cannotCreate(path: "/x", reason: "no"), VirtualServerError.temporaryDirectoryMissing("/x"),
            VirtualServerError.invalidOption("x"), VirtualServerError.systemCall("fork", reason: "no"),
            VirtualServerError.commandFailed(command: "x", output: ""), VirtualServerError.xorgDriverMismatch(headers: "1", server: "2"),
            BitmapError.cannotWrite(path: "/x", reason: "no"), BitmapError.cannotRead(path: "/x", reason: "no"),
            ServerEnded(server: "the X server at :9", pid: 1, status: 143), OutputError(reason: "no", readerGone: false), UsageError(message: "no"),
            ValidationError("no"), ControlRefusal(code: .noLease, message: "no"),
        ]
        for error in errors {
            let failure = ControlService.failure(error)
            let code = ControlErrorCode(rawValue: failure.code)
            #expect(code != nil && code != .internal, "\(error) became \(failure.code)")
            #expect(failure.status == code?.status, "\(failure.code): \(failure.status)")
        }
        #expect(ControlService.failure(CancellationError()).code == "internal")
    }

    @Test("the requests table lists every member each request's typed answer has, on X and on Wayland")
    func answerTable() throws {
        let mode = ScreenJSON.Mode(width: 1, height: 1, refreshRate: 60, interlaced: false)
        let window = WindowJSON(ServerWindow(id: 1, title: "t", appID: "a", pid: 2, frame: Rect(x: 0, y: 0, width: 1, height: 1),
                                             screen: "DP-1", state: .normal))
        let answers: [ControlRequest.Name: [any ControlAnswerBody]] = [
            .hello: [HelloAnswer(protocolVersion: 2, kind: "xvfb", display: ":1", pid: 1, leased: true),
                     HelloAnswer(protocolVersion: 2, kind: "wayland", display: nil, waylandDisplay: .some("wayland-0"), xwayland: "lazy", pid: 1, leased: true)],
            .lease: [LeaseAnswer(lease: "L", address: .x(display: ":1", xauthority: "/a"), pid: 1, warm: true, replaced: false, reason: nil),
                     LeaseAnswer(lease: "L", address: .wayland(waylandDisplay: "w", runtimeDirectory: "/r", display: ":2"), pid: 1,
                                 warm: true, replaced: false, reason: nil)],
            .release: [ReleaseAnswer(kept: true, reason: nil)], .plug: [ChangeAnswer(configurationSerial: 7)],
            .unplug: [ChangeAnswer(configurationSerial: 8)], .mode: [ModeAnswer(name: "A", mode: mode, configurationSerial: 9)],
            .screens: [ScreensAnswer(screens: [], configurationSerial: 9)],
            .screenshot: [ScreenshotAnswer(output: "/a.png", width: 1, height: 1)], .pixel: [PixelAnswer(0x102030)],
            .windows: [WindowsAnswer(windows: [])], .move_window: [WindowAnswer(window: window)], .fullscreen_window: [WindowAnswer(window: window)],
        ]
        for row in try Self.table(after: "## Requests", in: Self.page()) {
            guard let name = Self.quoted(row[0]).first.flatMap(ControlRequest.Name.init(rawValue:)) else { continue }
            let listed = Set(Self.quoted(row[2]))
            for answer in answers[name] ?? [] {
                let keys = Set(answer.members.map(\.key))
                #expect(keys.isSubset(of: listed), "\(name): \(keys.subtracting(listed)) not in the table")
            }
        }
        #expect(PixelAnswer(0x102030).hex == "#102030")
    }

    @Test("the requests table names every request and each one's fields")
    func requestTable() throws {
        let rows = try Self.table(after: "## Requests", in: Self.page())
        let names = rows.compactMap { Self.quoted($0[0]).first }
        #expect(names == ControlRequest.Name.allCases.map(\.rawValue))
        for row in rows {
            guard let name = Self.quoted(row[0]).first.flatMap(ControlRequest.Name.init(rawValue:)) else { continue }
            // Every field a row's request takes is listed in its row, `directory` too; `lease`, which every
            // request on a lease takes, is said once below the table.
            let own = Set((name.fields + name.commonFields).map(\.key)).subtracting(["lease"])
            let common = Set(name.commonFields.map(\.key))
            let listed = Set(Self.quoted(row[1]).filter { $0.allSatisfy(\.isLetter) && $0.first?.isLowercase == true })
            #expect(own.isSubset(of: listed), "\(name): \(own.subtracting(listed)) not in the table")
            #expect(listed.isSubset(of: own.union(common)), "\(name): the table lists \(listed.subtracting(own.union(common)))")
        }
    }
}
