import Multihead

/// A coloured button that changes colour and counts when tapped (its primary action).
@MainActor
final class ControlView: Button {
    let title: String
    private let colors: [Color]
    private(set) var taps = 0
    /// Whether the colour is still fading in.
    private(set) var isFading = false

    init(title: String, frame: Rect, colors: [Color]) {
        self.title = title
        self.colors = colors
        super.init(frame: frame)
        backgroundColor = colors.first
        titleLabel.font = .systemFont(ofSize: 16, weight: .semibold)
        setTitleColor(.white, for: .normal)
        setTitle(title, for: .normal)
        addAction(Action(title: title) { [weak self] _ in self?.tapped() }, for: .primaryActionTriggered)
    }

    private func tapped() {
        taps += 1
        // The new colour fades in (UIKit's animation model: the property is final at once).
        isFading = true
        View.animate(withDuration: 0.25, animations: { self.backgroundColor = self.colors[self.taps % self.colors.count] },
                     completion: { [weak self] _ in self?.isFading = false })
        setTitle("\(title) ×\(taps)", for: .normal)
    }
}

/// The main window's content: a title, one line per screen, and three controls.
@MainActor
final class MainViewController: ViewController {
    private let title = Label(frame: .zero)
    private let screenList = ScreenListView(frame: .zero)
    private(set) var controls: [ControlView] = []

    override func viewDidLoad() {
        view.backgroundColor = Color(red: 0.13, green: 0.15, blue: 0.19)
        title.text = "Multihead demo: q or Escape quits"
        title.font = .boldSystemFont(ofSize: 28)
        title.textColor = .white
        title.textAlignment = .center
        view.addSubview(title)
        let specs: [(String, [Color])] = [
            ("red", [Color(red: 0.8, green: 0.2, blue: 0.2), Color(red: 0.4, green: 0.1, blue: 0.1)]),
            ("green", [Color(red: 0.2, green: 0.7, blue: 0.3), Color(red: 0.1, green: 0.35, blue: 0.15)]),
            ("blue", [Color(red: 0.2, green: 0.4, blue: 0.9), Color(red: 0.1, green: 0.2, blue: 0.45)]),
        ]
        for spec in specs {
            let c = ControlView(title: spec.0, frame: Rect(x: 0, y: 0, width: 160, height: 90), colors: spec.1)
            controls.append(c)
            view.addSubview(c)
        }
        view.addSubview(screenList)
    }

    /// Places the title, the controls and the screen list from the view's bounds, whenever it lays out.
    override func viewWillLayoutSubviews() {
        // The title centred across the window.
        title.frame = Rect(x: 40, y: 30, width: max(1, view.bounds.width - 80), height: title.intrinsicContentSize.height)
        for (i, c) in controls.enumerated() { c.frame.origin = Point(x: 40 + Double(i) * 180, y: 90) }
        let b = view.bounds
        screenList.frame = Rect(x: 40, y: 220, width: max(1, b.width - 80), height: max(1, b.height - 240))
    }

    /// Shows one line per screen: name, frame, mode.
    func show(_ screens: [Screen]) {
        screenList.lines = screens.enumerated().map { i, s in
            let mode = s.currentMode.map { "\($0)" } ?? "no mode"
            return "\(i == 0 ? "main " : "")\(s.name)  \(s.frame)  \(mode)  \(s.availableModes.count) mode\(s.availableModes.count == 1 ? "" : "s")"
        }
    }
}

/// A column of lines, placed in `layoutSubviews`: setting `lines` only asks for layout.
@MainActor
final class ScreenListView: View {
    private var labels: [Label] = []

    /// The lines shown, top to bottom.
    var lines: [String] = [] {
        didSet {
            while labels.count < lines.count {
                let l = Label(frame: .zero)
                l.fontSize = 20
                l.textColor = Color(white: 0.9)
                labels.append(l)
                addSubview(l)
            }
            while labels.count > lines.count { labels.removeLast().removeFromSuperview() }
            for (l, text) in zip(labels, lines) { l.text = text }
            setNeedsLayout()
        }
    }

    override func layoutSubviews() {
        for (i, l) in labels.enumerated() {
            l.sizeToFit()
            l.frame.origin = Point(x: 0, y: Double(i) * 34)
        }
    }
}

/// The main window: q or Escape ends the demo.
@MainActor
final class DemoWindow: Window {
    var onQuit: (() -> Void)?

    override func pressesBegan(_ presses: Set<Press>, with event: Event) {
        if presses.contains(where: { $0.key.keyCode == .keyboardQ || $0.key.keyCode == .keyboardEscape }) { onQuit?() }
    }
}

/// The seed's Listing 2-3: a white field with a "<no content>" label, centred by `layoutSubviews` at
/// whatever size the field is given.
@MainActor
final class PlaceholderView: View {
    private let label = Label(frame: .zero)

    override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .white
        label.text = "<no content>"
        label.fontSize = 18
        label.sizeToFit()
        addSubview(label)
    }

    override func layoutSubviews() {
        label.center = Point(x: bounds.width / 2, y: bounds.height / 2)
    }
}
