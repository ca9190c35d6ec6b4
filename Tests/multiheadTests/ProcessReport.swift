import Foundation
import MultiheadTesting

/// What a child that did not end was doing, from /proc: its state and signal masks, each thread's state and
/// wait channel, and which other processes hold its output pipes open.
struct ProcessReport: Error, CustomStringConvertible, Sendable {
    let description: String

    init(description: String) {
        self.description = description
    }

    init(_ child: ChildProcess) {
        let pid = child.pid
        var lines: [String] = []
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "(no /proc/\(pid)/status)"
        let fields = ["State", "Threads", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"]
        lines += status.split(separator: "\n").filter { line in fields.contains { line.hasPrefix($0 + ":") } }.map(String.init)
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8)) ?? ""
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/wchan", encoding: .utf8)) ?? "?"
            let mask = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? "")
                .split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? ""
            // "pid (comm) S …": the name and the state.
            let nameAndState = stat.split(separator: ")", maxSplits: 1)
            lines.append("thread \(tid) \(nameAndState.first.map { $0 + ")" } ?? "") \(nameAndState.last?.split(separator: " ").first ?? "?") wchan \(wchan) \(mask)")
        }
        for (name, fd) in [("stdout", child.stdout), ("stderr", child.stderr)] {
            guard let pipe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)") else { continue }
            var holders: [String] = []
            for other in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(other) != nil && Int32(other) != getpid() {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(other)/fd")) ?? []
                if fds.contains(where: { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(other)/fd/\($0)")) == pipe }) {
                    let comm = (try? String(contentsOfFile: "/proc/\(other)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                    holders.append("\(other) (\(comm))")
                }
            }
            lines.append("its \(name) (\(pipe)) is held open by: \(holders.isEmpty ? "nobody" : holders.joined(separator: ", "))")
        }
        description = lines.joined(separator: "; ")
    }
}
