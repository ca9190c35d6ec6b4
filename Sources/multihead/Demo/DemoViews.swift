import Multihead

/// A coloured square that changes colour and counts when tapped.
@MainActor
final class ControlView: View {
    let title: String
    private let colors: [Color]
    private let label = Label(frame: .zero)
    private(set) var taps = 0

    init(title: String, frame: Rect, colors: [Color]) {
        self.title = title
        self.colors = colors
        super.init(frame: frame)
        backgroundColor = colors.first
        label.fontSize = 16
        label.textColor = .white
        addSubview(label)
        updateLabel()
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        taps += 1
        backgroundColor = colors[taps % colors.count]
        updateLabel()
    }

    private func updateLabel() {
        label.text = taps == 0 ? title : "\(title) ×\(taps)"
        label.sizeToFit()
        label.center = Point(x: bounds.width / 2, y: bounds.height / 2)
    }
}

/// The main window's content: a title, one line per screen, and three controls.
@MainActor
final class MainViewController: ViewController {
    private let title = Label(frame: .zero)
    private var lines: [Label] = []
    private(set) var controls: [ControlView] = []

    override func viewDidLoad() {
        view.backgroundColor = Color(red: 0.13, green: 0.15, blue: 0.19)
        title.text = "Multihead demo: q or Escape quits"
        title.fontSize = 28
        title.textColor = .white
        title.frame.origin = Point(x: 40, y: 30)
        title.sizeToFit()
        view.addSubview(title)
        let specs: [(String, [Color])] = [
            ("red", [Color(red: 0.8, green: 0.2, blue: 0.2), Color(red: 0.4, green: 0.1, blue: 0.1)]),
            ("green", [Color(red: 0.2, green: 0.7, blue: 0.3), Color(red: 0.1, green: 0.35, blue: 0.15)]),
            ("blue", [Color(red: 0.2, green: 0.4, blue: 0.9), Color(red: 0.1, green: 0.2, blue: 0.45)]),
        ]
        for (i, spec) in specs.enumerated() {
            let c = ControlView(title: spec.0, frame: Rect(x: 40 + Double(i) * 180, y: 90, width: 160, height: 90), colors: spec.1)
            controls.append(c)
            view.addSubview(c)
        }
    }

    /// Shows one line per screen: name, frame, mode.
    func show(_ screens: [Screen]) {
        for l in lines { l.removeFromSuperview() }
        lines = screens.enumerated().map { i, s in
            let l = Label(frame: Rect(x: 40, y: 220 + Double(i) * 34, width: 10, height: 10))
            let mode = s.currentMode.map { "\($0)" } ?? "no mode"
            l.text = "\(i == 0 ? "main " : "")\(s.name)  \(s.frame)  \(mode)  \(s.availableModes.count) mode\(s.availableModes.count == 1 ? "" : "s")"
            l.fontSize = 20
            l.textColor = Color(white: 0.9)
            l.sizeToFit()
            return l
        }
        for l in lines { view.addSubview(l) }
    }
}

/// The main window: q or Escape ends the demo.
@MainActor
final class DemoWindow: Window {
    var onQuit: (() -> Void)?

    override func pressesBegan(_ presses: Set<Press>, with event: Event) {
        if presses.contains(where: { $0.key.name == "q" || $0.key.name == "Escape" }) { onQuit?() }
    }
}

/// The seed's Listing 2-3: a white field with a centred "<no content>" label.
@MainActor
func makePlaceholder(size: Size) -> View {
    let field = View(frame: Rect(origin: .zero, size: size))
    field.backgroundColor = .white
    let label = Label(frame: .zero)
    label.text = "<no content>"
    label.fontSize = 18
    label.sizeToFit()
    label.center = Point(x: size.width / 2, y: size.height / 2)
    field.addSubview(label)
    return field
}
