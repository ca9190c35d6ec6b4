import Foundation
import MultiheadTesting
import Testing

/// `Scripts/setup` against a fake `apt-get` (and a `dpkg-query` that calls every package missing) first on
/// PATH: what a person sees when apt fails each way that CI runners meet.
@Suite("Scripts/setup says what apt did and what to run", .timeLimit(.minutes(3)))
struct SetupScriptTests {
    /// How the fake apt-get behaves.
    enum Apt: String, CaseIterable {
        /// Installs only when asked to wait for the dpkg lock (another apt holds it, as at a CI image's boot).
        case lockHeld
        /// Says the system is half-configured until `apt-get -f install` has run.
        case halfConfigured
        /// Cannot find a package, whatever is done.
        case missingPackage
        /// `apt-get update` fails (no network).
        case noNetwork
    }

    @Test("each failure of apt: the right exit status, apt's own error lines, what to run", arguments: Apt.allCases)
    func setupFailures(apt: Apt) async throws {
        let dir = NSTemporaryDirectory() + "mh-setup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("\(dir)/dpkg-query", "#!/bin/sh\nexit 1\n")
        try write("\(dir)/apt-get", """
            #!/bin/bash
            echo "$*" >> "\(dir)/calls"
            case "\(apt.rawValue):$*" in
              lockHeld:*update*) exit 0 ;;
              lockHeld:*DPkg::Lock::Timeout=300*install*) exit 0 ;;
              lockHeld:*) echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)"; exit 100 ;;
              halfConfigured:*update*) exit 0 ;;
              halfConfigured:*" -f install"*) touch "\(dir)/fixed"; echo "Setting up libfoo (1.0) ..."; exit 0 ;;
              halfConfigured:*install*) [ -e "\(dir)/fixed" ] && exit 0
                echo "Reading package lists..."
                echo "E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution)."; exit 100 ;;
              missingPackage:*update*) exit 0 ;;
              missingPackage:*) echo "Reading package lists..."; echo "E: Unable to locate package libglfw3-dev"; exit 100 ;;
              noNetwork:*) echo "W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'"
                echo "E: Some index files failed to download."; exit 100 ;;
            esac
            """)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/setup").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [script]
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = dir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let (stderr, _) = await onOwnThread { () -> (String, Data) in
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (String(decoding: e, as: UTF8.self), o)
        }
        let calls = (try? String(contentsOfFile: "\(dir)/calls", encoding: .utf8)) ?? ""
        switch apt {
        case .lockHeld:
            #expect(p.terminationStatus == 0, "\(stderr)")
            #expect(calls.contains("DPkg::Lock::Timeout=300"))
        case .halfConfigured:
            #expect(p.terminationStatus == 0, "\(stderr)")
            #expect(calls.contains(" -f install"))
            #expect(stderr.contains("half-configured"))
        case .missingPackage:
            #expect(p.terminationStatus == 69)
            #expect(stderr.contains("E: Unable to locate package libglfw3-dev"))
            #expect(stderr.contains("apt-get install failed"))
            #expect(stderr.contains("run: apt-get update && apt-get install") || stderr.contains("run: sudo apt-get update"))
            #expect(!calls.contains(" -f install"))
        case .noNetwork:
            #expect(p.terminationStatus == 69)
            #expect(stderr.contains("E: Some index files failed to download."))
            #expect(stderr.contains("apt-get update failed"))
        }
    }

    /// Writes an executable with close-on-exec set: a child spawned meanwhile by another test must not
    /// keep it open for writing, or running it fails with ETXTBSY ("Text file busy").
    private func write(_ path: String, _ text: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }
}
