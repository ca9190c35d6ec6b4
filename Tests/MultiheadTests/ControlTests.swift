@testable import Multihead
import MultiheadInMemory
import Testing

@MainActor
@Suite("Controls and buttons, as UIControl and UIButton track touches")
struct ControlTests {
    /// A window on MAIN with a 100×40 button at (50, 50), and a log of the events it sent.
    func setUp() throws -> (Application, InMemoryBackend, Window, Button, Log) {
        let (app, backend) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300), screen: app.mainScreen)
        let button = Button(frame: Rect(x: 50, y: 50, width: 100, height: 40))
        w.addSubview(button)
        w.isHidden = false
        let log = Log()
        let names: [(Control.Event, String)] = [
            (.touchDown, "down"), (.touchDownRepeat, "repeat"), (.touchDragInside, "dragInside"),
            (.touchDragOutside, "dragOutside"), (.touchDragEnter, "enter"), (.touchDragExit, "exit"),
            (.touchUpInside, "upInside"), (.touchUpOutside, "upOutside"), (.touchCancel, "cancel"),
            (.primaryActionTriggered, "primary"),
        ]
        for (event, name) in names {
            // Weak, as a handler that names its own control must be: the control keeps its actions.
            button.addAction(Action { [weak button] a in log.entries.append("\(name)\(a.sender === button ? "" : " (sender?)")") }, for: event)
        }
        return (app, backend, w, button, log)
    }

    final class Log { var entries: [String] = [] }

    @Test("a tap inside: down, up inside, then the primary action; highlighted only while down")
    func tapInside() throws {
        let (app, backend, w, button, log) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60)))
        #expect(button.isHighlighted && button.state == .highlighted && button.isTracking)
        backend.inject(.pointer(.pointerUp, at: Point(x: 60, y: 60)))
        #expect(!button.isHighlighted && button.state == .normal)
        #expect(log.entries == ["down", "upInside", "primary"])
    }

    @Test("dragging out and back in: exit, outside, enter, inside; released outside: up outside, no action")
    func dragOutAndIn() throws {
        let (app, backend, w, button, log) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 70, y: 65)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 300, y: 200)))
        #expect(!button.isHighlighted)
        backend.inject(.pointer(.pointerMoved, at: Point(x: 301, y: 200)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 60, y: 60)))
        #expect(button.isHighlighted)
        backend.inject(.pointer(.pointerMoved, at: Point(x: 300, y: 200)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 300, y: 200)))
        #expect(log.entries == ["down", "dragInside", "dragOutside", "exit", "dragOutside", "dragInside", "enter",
                                "dragOutside", "exit", "upOutside"])
        #expect(!log.entries.contains("primary"))
    }

    @Test("hiding the window cancels the touch: cancel, not highlighted, no action")
    func cancelledByHiding() throws {
        let (app, backend, w, button, log) = try setUp()
        defer { withExtendedLifetime(app) {} }
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60)))
        w.isHidden = true
        #expect(!button.isHighlighted && !button.isTracking)
        #expect(log.entries == ["down", "cancel"])
    }

    @Test("a disabled control takes no touch and sends nothing; its state says disabled")
    func disabled() throws {
        let (app, backend, w, button, log) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        button.isEnabled = false
        #expect(button.state == .disabled)
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 60, y: 60)))
        #expect(log.entries.isEmpty && !button.isHighlighted)
    }

    @Test("a second tap within 0.35 s and 45 points is a touch down repeat")
    func repeatTap() throws {
        let (app, backend, w, _, log) = try setUp()
        defer { withExtendedLifetime((app, w)) {} }
        backend.inject(.pointer(.pointerDown, at: Point(x: 60, y: 60), timestamp: 1.0))
        backend.inject(.pointer(.pointerUp, at: Point(x: 60, y: 60), timestamp: 1.1))
        backend.inject(.pointer(.pointerDown, at: Point(x: 70, y: 62), timestamp: 1.3))
        backend.inject(.pointer(.pointerUp, at: Point(x: 70, y: 62), timestamp: 1.35))
        backend.inject(.pointer(.pointerDown, at: Point(x: 70, y: 62), timestamp: 3.0))
        #expect(log.entries.filter { $0 == "repeat" }.count == 1)
    }

    @Test("titles and colours per state fall back to normal's; removeAction and sendActions; the hooks")
    func titlesAndActions() throws {
        final class Hooked: Control {
            var hooks: [String] = []
            override func beginTracking(_ touch: Touch, with event: Multihead.Event?) -> Bool { hooks.append("begin"); return true }
            override func continueTracking(_ touch: Touch, with event: Multihead.Event?) -> Bool { hooks.append("continue"); return false }
            override func endTracking(_ touch: Touch?, with event: Multihead.Event?) { hooks.append("end") }
        }
        var ran = 0
        let action = Action(title: "Next") { _ in ran += 1 }
        let b = Button(frame: Rect(x: 0, y: 0, width: 80, height: 30), primaryAction: action)
        #expect(b.currentTitle == "Next" && b.titleLabel.text == "Next" && b.titleLabel.textAlignment == .center)
        b.setTitle("Pressed", for: .highlighted)
        #expect(b.title(for: .selected) == "Next" && b.title(for: .highlighted) == "Pressed")
        b.isHighlighted = true
        #expect(b.titleLabel.text == "Pressed")
        #expect(b.currentTitleColor == Color.black.withAlphaComponent(0.5))
        b.setTitleColor(.red, for: .highlighted)
        #expect(b.titleLabel.textColor == .red)
        b.sendActions(for: .primaryActionTriggered)
        #expect(ran == 1 && action.sender === b)
        b.removeAction(action, for: .primaryActionTriggered)
        b.sendActions(for: .primaryActionTriggered)
        #expect(ran == 1)

        let (app, backend) = try makeApp(extra: false)
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200), screen: app.mainScreen)
        let c = Hooked(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(c)
        w.isHidden = false
        backend.inject(.pointer(.pointerDown, at: Point(x: 10, y: 10)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 20, y: 10)))
        backend.inject(.pointer(.pointerMoved, at: Point(x: 30, y: 10)))
        backend.inject(.pointer(.pointerUp, at: Point(x: 30, y: 10)))
        // continueTracking said false: no more continue, and no end.
        #expect(c.hooks == ["begin", "continue"])
    }
}
