import Foundation
import Multihead
import MultiheadTesting
import MultiheadX11

@MainActor
func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

@MainActor
func micros(_ body: () throws -> Void) rethrows -> Double {
    let c = ContinuousClock()
    let t = c.now
    try body()
    let d = c.now - t
    return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
}

/// The C baseline's path: beside this program.
func baselinePath() -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("XlibBaseline").path
}

/// Runs the C baseline and returns its median in µs.
@MainActor
func baseline(_ args: [String], environment: [String: String] = [:]) throws -> Double {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: baselinePath())
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    guard let field = text.split(separator: " ").first(where: { $0.hasPrefix("median_us=") }),
          let v = Double(field.dropFirst("median_us=".count).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw VirtualServerError.didNotStart(binary: "XlibBaseline", log: text)
    }
    return v
}

@MainActor
func row(_ name: String, _ swift: Double, _ c: Double, unit: String = "µs") {
    let ratio = c > 0 ? swift / c : .infinity
    // Sub-microsecond figures (hit testing) need a third decimal to say anything.
    func figure(_ v: Double) -> String { String(format: v < 1 ? "%.3f" : "%.2f", v) }
    print("| \(name) | \(figure(swift)) \(unit) | \(figure(c)) \(unit) | \(String(format: "%.2f", ratio))× |")
}

