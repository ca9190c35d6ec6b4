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

/// The C baseline's path: `MULTIHEAD_BASELINE` (Scripts/bench builds it apart, with the usual flags), or
/// beside this program.
func baselinePath() -> String {
    if let path = ProcessInfo.processInfo.environment["MULTIHEAD_BASELINE"] { return path }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("XlibBaseline").path
}

/// Swift only, under a profiler (`MULTIHEAD_BENCH_SWIFT_ONLY`): valgrind
/// cannot start the C side, whose figures are then 0.
let swiftOnly = ProcessInfo.processInfo.environment["MULTIHEAD_BENCH_SWIFT_ONLY"] != nil

/// Runs the C baseline and returns its median in µs.
@MainActor
func baseline(_ args: [String], environment: [String: String] = [:]) throws -> Double {
    if swiftOnly { return 0 }
    return try RunningBaseline(args, environment: environment).median()
}

/// The C baseline running beside the Swift side: started, its set-up awaited (`ready`), told when to
/// begin (`begin(atNanoseconds:)`), its figure read once it ends.
final class RunningBaseline {
    private let process = Process()
    private let out = Pipe()
    private let input = Pipe()

    init(_ args: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: baselinePath())
        process.arguments = args
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardInput = input
        try process.run()
    }

    /// Tells a baseline that asks (`animate`) the `CLOCK_MONOTONIC` time of its frame 0.
    func begin(atNanoseconds t: UInt64) throws {
        try input.fileHandleForWriting.write(contentsOf: Array("\(t)\n".utf8))
        try input.fileHandleForWriting.close()
    }

    /// Blocks until the baseline prints its first line (`ready` once it is set up).
    func waitUntilReady() throws { _ = try readLine() }

    /// One iteration of a baseline in lock step (`MULTIHEAD_BASELINE_STEPPED`): runs it and returns the
    /// µs it took.
    func step() throws -> Double {
        try input.fileHandleForWriting.write(contentsOf: Array("\n".utf8))
        let line = try readLine()
        guard let us = Double(line) else { throw VirtualServerError.didNotStart(binary: "XlibBaseline", log: line) }
        return us
    }

    /// The baseline's next line, read byte by byte so that nothing after it is taken from the pipe.
    private func readLine() throws -> String {
        var line: [UInt8] = []
        while true {
            guard let byte = try out.fileHandleForReading.read(upToCount: 1)?.first else {
                throw VirtualServerError.didNotStart(binary: "XlibBaseline", log: String(decoding: line, as: UTF8.self))
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Waits for the baseline to end and returns its `median_us`.
    func median() throws -> Double { try figures(["median_us"])[0] }

    /// Waits for the baseline to end and returns the figures it printed as `name=value`, in the order asked.
    func figures(_ names: [String]) throws -> [Double] {
        // A baseline still waiting for its start begins now.
        try? input.fileHandleForWriting.close()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        return try names.map { name in
            guard let field = fields.first(where: { $0.hasPrefix(name + "=") }), let v = Double(field.dropFirst(name.count + 1)) else {
                throw VirtualServerError.didNotStart(binary: "XlibBaseline", log: text)
            }
            return v
        }
    }
}

@MainActor
func row(_ name: String, _ swift: Double, _ c: Double, unit: String = "µs") {
    let ratio = c > 0 ? swift / c : .infinity
    // Sub-microsecond figures (hit testing) need a third decimal to say anything.
    func figure(_ v: Double) -> String { String(format: v < 1 ? "%.3f" : "%.2f", v) }
    print("| \(name) | \(figure(swift)) \(unit) | \(figure(c)) \(unit) | \(String(format: "%.2f", ratio))× |")
}


