extension String {
    /// The text with control characters escaped (`\e`, `\n`, `\t`, `\r`, `\\`, else `\u{…}`), so that a name
    /// from the X server can neither spoof table rows nor reach the terminal as an escape sequence.
    package var terminalEscaped: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\u{1b}": out += "\\e"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                // C0, DEL, C1, and the bidirectional overrides that reorder what follows.
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
