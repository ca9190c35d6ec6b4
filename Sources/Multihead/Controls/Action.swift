/// A closure a control runs for its events (UIAction): what UIKit's target/selector pairs do, as a value
/// with a title.
@MainActor
public final class Action {
    /// The action's title (a button made with `init(frame:primaryAction:)` shows it).
    public var title: String
    /// The control that sent the action, set before the handler runs.
    public internal(set) weak var sender: Control?
    let handler: @MainActor (Action) -> Void

    /// Makes an action.
    public init(title: String = "", handler: @escaping @MainActor (Action) -> Void) {
        self.title = title
        self.handler = handler
    }
}
