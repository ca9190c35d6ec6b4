/// A button (UIButton): a title per state in a centred `titleLabel`, and its primary action on a touch up
/// inside (`.touchUpInside`, then `.primaryActionTriggered`).
///
/// A state without its own title or title colour uses `.normal`'s, as in UIKit; while highlighted or
/// disabled without a colour of its own, the title is drawn at half and a third of its opacity, as UIKit's
/// system buttons dim theirs.
@MainActor
open class Button: Control {
    /// The label that shows the current title, centred in the bounds (it takes no touches).
    public let titleLabel = Label(frame: .zero)
    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: Color] = [:]

    /// Makes a button with no title.
    public override init(frame: Rect) {
        super.init(frame: frame)
        titleLabel.textAlignment = .center
        titleLabel.isUserInteractionEnabled = false
        titleLabel.frame = bounds
        addSubview(titleLabel)
        updateTitle()
    }

    /// Makes a button whose title is the action's and that runs it for `.primaryActionTriggered`.
    public convenience init(frame: Rect, primaryAction: Action?) {
        self.init(frame: frame)
        guard let primaryAction else { return }
        setTitle(primaryAction.title, for: .normal)
        addAction(primaryAction, for: .primaryActionTriggered)
    }

    /// Sets the title shown in a state (nil: that state falls back to `.normal`'s).
    public func setTitle(_ title: String?, for state: State) {
        titles[state.rawValue] = title
        updateTitle()
    }

    /// The title for a state: its own, else `.normal`'s.
    public func title(for state: State) -> String? { titles[state.rawValue] ?? titles[State.normal.rawValue] }

    /// Sets the title colour in a state (nil: that state falls back to `.normal`'s).
    public func setTitleColor(_ color: Color?, for state: State) {
        titleColors[state.rawValue] = color
        updateTitle()
    }

    /// The title colour for a state: its own, else `.normal`'s (black when none is set).
    public func titleColor(for state: State) -> Color? {
        titleColors[state.rawValue] ?? titleColors[State.normal.rawValue] ?? .black
    }

    /// The title shown now.
    public var currentTitle: String? { title(for: state) }

    /// The title colour shown now, dimmed while highlighted or disabled unless that state has its own.
    public var currentTitleColor: Color {
        let base = titleColor(for: state) ?? .black
        guard titleColors[state.rawValue] == nil else { return base }
        if state.contains(.disabled) { return base.withAlphaComponent(base.alpha / 3) }
        if state.contains(.highlighted) { return base.withAlphaComponent(base.alpha / 2) }
        return base
    }

    open override func stateDidChange() {
        super.stateDidChange()
        updateTitle()
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        titleLabel.frame = bounds
    }

    override var upInsideEvents: Event { [.touchUpInside, .primaryActionTriggered] }

    private func updateTitle() {
        titleLabel.text = currentTitle ?? ""
        titleLabel.textColor = currentTitleColor
    }
}
