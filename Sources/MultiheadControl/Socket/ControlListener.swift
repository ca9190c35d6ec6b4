#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import MultiheadProcess

/// The answer a connection's thread waits for while the main actor works on its request.
package final class ControlReply: Sendable {
    private let answer = Locked<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    /// Hands the answer over (once).
    package func send(_ line: [UInt8]) {
        answer.withLock { $0 = line }
        done.signal()
    }

    /// Waits for the answer.
    package func wait() -> [UInt8] {
        done.wait()
        return answer.withLock { $0 }
    }
}

/// The control socket of `multihead server` and `multihead run`: a Unix socket in this process's session
/// folder (mode 0700, the socket 0600), a thread that accepts, and a thread per connection that reads its
/// lines. What never reaches the service is answered here: a line that is not a request, a line past the
/// limit, a line that takes too long, one connection too many (each then answered and closed), a process
/// of another user (refused, closed); a connection idle too long is closed. Each request goes to `deliver`
/// with a reply to fill, and its connection waits for that answer before it reads the next.
package final class ControlListener: Sendable {
    /// The socket's path, which `MULTIHEAD_CONTROL` names.
    package let path: String
    private let fd: Int32

    /// The most connections served at once (each a thread and up to a line of buffer); one more is
    /// answered `tooManyConnections` and closed.
    package static let connectionLimit = 64
    /// Seconds a connection may send nothing between requests before it is closed.
    package static let idleLimit = 300.0
    /// Seconds a request line may take from its first byte to its newline.
    package static let lineTime = 10.0

    /// Listens at `directory/control.sock`; `deliver` runs on a connection's thread.
    package init(in directory: String, deliver: @escaping @Sendable (ControlRequest, ControlReply) -> Void) throws {
        path = directory + "/control.sock"
        do {
            fd = try ControlSocket.listen(at: path)
        } catch {
            throw CommandFailure(.cannotCreate, message: "cannot make the control socket: \(error)")
        }
        let listening = fd
        let open = Locked(0)
        let thread = Thread {
            while let connection = ControlSocket.accept(listening) {
                let admitted = open.withLock { count in
                    guard count < Self.connectionLimit else { return false }
                    count += 1
                    return true
                }
                guard admitted else {
                    let lines = ControlLines(connection)
                    lines.refuse(.tooManyConnections, "the control socket serves at most \(Self.connectionLimit) connections at once; close one and connect again",
                                 waiting: false)
                    lines.close()
                    continue
                }
                Thread.detachNewThread {
                    Self.serve(connection, deliver: deliver)
                    open.withLock { $0 -= 1 }
                }
            }
        }
        thread.name = "multihead.control"
        thread.start()
    }

    /// Answers one connection's requests in order until it closes.
    private static func serve(_ fd: Int32, deliver: @Sendable (ControlRequest, ControlReply) -> Void) {
        let lines = ControlLines(fd, idleLimit: Self.idleLimit, lineTime: Self.lineTime)
        defer { lines.close() }
        // A client that sends requests and never reads their answers must not hold this thread for ever.
        var sendLimit = timeval(tv_sec: Int(Self.lineTime), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sendLimit, socklen_t(MemoryLayout<timeval>.size))
        // The folder keeps other users out; this keeps out root's processes too, and any socket passed on.
        guard let user = ControlSocket.peerUser(fd), user == getuid() else {
            let who = ControlSocket.peerUser(fd).map { "user \($0)" } ?? "an unknown user"
            lines.refuse(.forbidden, "the control socket answers only user \(getuid()), the one that started it; this is \(who)")
            return
        }
        while true {
            switch lines.next() {
            case .end, .idle: return
            case .tooLong:
                lines.refuse(.requestTooLong, "a request line is at most \(ControlSocket.lineLimit) bytes; closing this connection")
                return
            case .slowLine:
                lines.refuse(.requestTimeout, "a request line must end (with a newline) within \(Int(Self.lineTime)) s of its first byte; closing this connection")
                return
            case .line(let line):
                // A blank line is not a request: nothing to answer (a client's keep-alive, a stray newline).
                guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
                lines.markActive()
                switch ControlRequest.parse(line) {
                case .failure(let refusal):
                    guard lines.write(ControlAnswer.failure(CommandFailure(refusal), id: refusal.id).bytes) else { return }
                case .success(var request):
                    request.received = MonotonicClock.now()
                    let reply = ControlReply()
                    deliver(request, reply)
                    guard lines.write(reply.wait()) else { return }
                }
            }
        }
    }
}

/// The answers' shape: `{"ok":true,…}` with the request's fields, or `{"ok":false,"error":{…}}`, each with
/// the request's `id` when it had one.
package enum ControlAnswer {
    /// A success with these members.
    package static func success(_ members: [(key: String, value: JSONText)], id: JSONValue?) -> JSONText {
        .members([("ok", .bool(true))] + members + (id.map { [("id", $0.text)] } ?? []))
    }

    /// The answer to `request` whose work is `body`: its members, or the failure it threw.
    @MainActor
    package static func line(_ request: ControlRequest, _ body: () async throws -> any ControlAnswerBody) async -> [UInt8] {
        do {
            return success(try await body().members, id: request.id).bytes
        } catch {
            return failure(CommandFailure.answering(error), id: request.id).bytes
        }
    }

    /// A failure: the exit status the command would have, a stable code, the reason.
    package static func failure(_ f: CommandFailure, id: JSONValue?) -> JSONText {
        let error = JSONText.object(["status": .int(Int(f.status)), "code": .string(f.code), "message": .string(f.message)])
        return .members([("ok", .bool(false)), ("error", error)] + (id.map { [("id", $0.text)] } ?? []))
    }
}

package extension ControlLines {
    /// Answers a connection that will not be served further with `code` and the reason, then ends it
    /// (`finish`): the last line a client reads on it.
    func refuse(_ code: ControlErrorCode, _ message: String, waiting: Bool = true) {
        finish(with: ControlAnswer.failure(CommandFailure(code, message: message), id: nil).bytes, waiting: waiting)
    }
}
