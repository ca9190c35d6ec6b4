import Multihead
@testable import MultiheadServerControl
import MultiheadTesting
@testable import MultiheadX11
import Testing

/// A view that records the keys that reach it.
final class KeyRecorder: View {
    var keys: [Key] = []
    override var canBecomeFirstResponder: Bool { true }
    override func pressesBegan(_ p: Set<Press>, with e: Event) { keys.append(contentsOf: p.map(\.key)) }
}

@MainActor
@Suite("Keys by their HID usage, as UIKit names them", .timeLimit(.minutes(3)))
struct KeyCodeTests {
    @Test("keysyms and HID usages map both ways")
    func mapping() {
        #expect(KeyMapping.usage(forKeysym: 0xFF53) == .keyboardRightArrow)
        #expect(KeyMapping.usage(forKeysym: 0x61) == .keyboardA)
        #expect(KeyMapping.usage(forKeysym: 0x5A) == .keyboardZ)
        #expect(KeyMapping.usage(forKeysym: 0x30) == .keyboard0)
        #expect(KeyMapping.usage(forKeysym: 0xFFC9) == .keyboardF12)
        #expect(KeyMapping.usage(forKeysym: 0x1234) == .keyboardErrorUndefined)
        for usage in [KeyboardHIDUsage.keyboardA, .keyboard9, .keyboardEscape, .keyboardF1, .keyboardLeftShift, .keyboardUpArrow] {
            #expect(KeyMapping.keysym(for: usage).map(KeyMapping.usage(forKeysym:)) == usage)
        }
        #expect(KeyboardHIDUsage.character("Q") == .keyboardQ)
        #expect(KeyboardHIDUsage.character("7") == .keyboard7)
        #expect(KeyMapping.modifiers(state: 1 | 4) == [.shift, .control])
    }

    @Test("an arrow key and Shift+A typed through XTest arrive with their codes, texts and modifiers")
    func typedKeys() async throws {
        let server = try await VirtualServer.start()
        defer { server.stop() }
        let app = try server.makeApplication()
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200), screen: app.mainScreen)
        let recorder = KeyRecorder(frame: w.bounds)
        w.addSubview(recorder)
        w.makeKeyAndVisible()
        #expect(recorder.becomeFirstResponder())
        let backend = try #require(app.backend as? X11Backend)
        let control = try server.controlConnection()
        #expect(await app.run(until: { backend.xWindow(for: w).map { (try? control.inputFocus()) == $0 } ?? false }))
        try server.press(.keyboardRightArrow)
        try server.press(.keyboardA, modifiers: [.shift])
        // The Shift key is a press of its own, as in UIKit.
        #expect(await app.run(until: { recorder.keys.contains { $0.keyCode == .keyboardA } }))
        #expect(recorder.keys.map(\.keyCode) == [.keyboardRightArrow, .keyboardLeftShift, .keyboardA])
        let arrow = try #require(recorder.keys.first)
        #expect(arrow.modifierFlags.isEmpty)
        let a = recorder.keys[2]
        #expect(a.keyCode == .keyboardA)
        #expect(a.characters == "A")
        #expect(a.charactersIgnoringModifiers == "a")
        #expect(a.modifierFlags.contains(.shift))
    }
}
