/// The usage error for a geometry or size that starts with "-", which the parser would take for an
/// option ("Missing expected argument"): a size or a position cannot be negative.
func negativeGeometry(in arguments: [String]) -> String? {
    guard let command = arguments.first, ["plug", "mode"].contains(command) else { return nil }
    // "-100x100+0+0": a minus, digits, an x. A negative number alone ("--rate -5") is the parser's to judge.
    func looksLikeGeometry(_ s: String) -> Bool {
        let body = s.dropFirst()
        return s.hasPrefix("-") && body.first?.isNumber == true && body.drop { $0.isNumber }.first.map { $0 == "x" || $0 == "X" } == true
    }
    guard let bad = arguments.dropFirst().first(where: looksLikeGeometry) else { return nil }
    return "\"\(bad.terminalEscaped)\" is not a geometry: a size or a position cannot be negative"
}
