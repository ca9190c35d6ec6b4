import Foundation

/// Writes X authority files (the format libXau reads), so that each private server gets its own
/// MIT-MAGIC-COOKIE-1 without running `xauth`.
enum XauthFile {
    /// FamilyWild: the entry matches any host address.
    private static let familyWild: UInt16 = 0xFFFF
    private static let lock = NSLock()

    /// A fresh random 16-byte cookie.
    static func makeCookie() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    /// One entry: any host, the display number (empty: any display), the cookie.
    static func entry(display: String, cookie: [UInt8]) -> Data {
        var d = Data()
        func field(_ bytes: [UInt8]) {
            d.append(UInt8(bytes.count >> 8))
            d.append(UInt8(bytes.count & 0xFF))
            d.append(contentsOf: bytes)
        }
        d.append(UInt8(familyWild >> 8))
        d.append(UInt8(familyWild & 0xFF))
        field([])
        field(Array(display.utf8))
        field(Array("MIT-MAGIC-COOKIE-1".utf8))
        field(cookie)
        return d
    }

    /// Writes a file (mode 0600) holding one entry.
    static func write(_ path: String, display: String, cookie: [UInt8]) throws {
        let data = entry(display: display, cookie: cookie)
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw VirtualServerError.cannotWrite(path)
        }
    }

    /// The cookies of this process's servers, by display number, as the shared file holds them.
    nonisolated(unsafe) private static var cookies: [String: [UInt8]] = [:]

    /// Sets (or, with nil, removes) a display's cookie in the file shared by this process's servers and
    /// rewrites it: a display number used again must not find its old cookie first.
    static func set(_ path: String, display: String, cookie: [UInt8]?) throws {
        lock.lock()
        defer { lock.unlock() }
        cookies[display] = cookie
        var data = Data()
        for (d, c) in cookies.sorted(by: { $0.key < $1.key }) { data.append(entry(display: d, cookie: c)) }
        let tmp = path + ".new"
        guard FileManager.default.createFile(atPath: tmp, contents: data, attributes: [.posixPermissions: 0o600]),
              rename(tmp, path) == 0 else { throw VirtualServerError.cannotWrite(path) }
    }
}
