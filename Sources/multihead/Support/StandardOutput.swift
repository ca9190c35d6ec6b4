#if canImport(Glibc)
import Glibc
import MultiheadControl
import MultiheadService
#endif

/// Standard output as the command line contract treats it: every line written with `write(2)` and
/// checked. A failed write (a full disk, a closed descriptor) is `OutputError`, exit 74 with the reason;
/// a reader that left (EPIPE) is the streaming commands' quiet 141.
enum StandardOutput {
    /// Whether standard output (or standard error, or input) was closed when the program started. Its
    /// descriptor then holds /dev/null, so that no file or socket the program opens later (an X
    /// connection) takes its number and gets the output instead. Read once, first thing in `main`.
    static let wasClosedAtStart: Bool = {
        var closed = [false, false, false]
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            closed[Int(fd)] = true
            // The lowest free number: this one, as the lower ones are open or were just filled.
            _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        }
        return closed[1]
    }()

    /// Writes one line at once (past stdio's buffer: a reader of a pipe sees it as it happens). Do not mix
    /// with `print` in one command.
    static func line(_ text: String) throws(OutputError) { try line(Array(text.utf8)) }

    /// Writes one line of bytes at once; throws `OutputError` when it does not all arrive.
    static func line(_ bytes: [UInt8]) throws(OutputError) {
        if wasClosedAtStart { throw OutputError(reason: "standard output is closed", readerGone: false) }
        var line = bytes
        line.append(UInt8(ascii: "\n"))
        let failure: Int32? = line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(STDOUT_FILENO, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return n < 0 ? errno : ENOSPC }
                offset += n
            }
            return nil
        }
        if let failure {
            throw OutputError(reason: String(cString: strerror(failure)), readerGone: failure == EPIPE)
        }
    }
}

/// Standard output could not take what a command printed.
struct OutputError: ControlCodedError {
    /// Why, as the system says it ("No space left on device").
    let reason: String
    /// Whether its reader left (EPIPE): a streaming command ends quietly with 141 then.
    let readerGone: Bool

    var description: String { "cannot write to standard output: \(reason)" }
    var controlCode: ControlErrorCode { .outputFailed }
}
