/// The house rule for numbers a caller gives the model: non-finite geometry never reaches the server. A
/// setter given NaN or an infinity keeps its old value (or a stated default) and says so once in the log.
enum FiniteInput {
    /// Whether a value is taken: `isFinite`; when it is not, the refusal of `what` is logged.
    static func accepts(_ isFinite: Bool, _ what: @autoclosure () -> String) -> Bool {
        if !isFinite { Application.logger.warning("refused non-finite \(what())") }
        return isFinite
    }
}
